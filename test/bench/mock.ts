/**
 * Issues 4 and 15's benchmark, on the BUILT package: (a0) req/s of a bare `api.fetch` POST, against
 * an earlier build when `PROSPECTKIT_BENCH_BASELINE` names its dist/ directory (issue 15: must not
 * get slower), (a) req/s of `client.createProspectLog` through `api.fetch`, (b) the same through
 * MSW `setupServer` (msw 3), (c) the per-request time with 1,000 and with 1,000,000 stored logs,
 * (d) the heap and the resident memory per stored log (over the 1,000,000). Every ratio is
 * measured against its baseline in the same run, over paired rounds (see `paired`).
 * Run with `node --expose-gc` (the bench script does) so heap figures are taken after a full GC.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { atLeast, atMost, type Benchmark, info, median } from "./report.ts";

type Sdk = typeof import("../../src/index.ts");
type Mock = typeof import("../../mock/index.ts");

const KEY = "pk_bench_mock";
const BODY = { source: "crm", payload: { stage: "demo", score: 42 }, email: "bench@example.com" };
/** Paired rounds: each pair runs both sides back to back (order alternating); the figure is the median of the pairs' ratios, which a noisy 2-core machine disturbs least. */
const ROUNDS = 31;
/** The large store of (c) and (d). */
const STORED = 1_000_000;

const run = promisify(execFile);

const gc = (globalThis as { gc?: () => void }).gc;

/** Mean µs per call of `calls` sequential calls. */
async function perCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

function heapUsed(): number {
  return memory().heapUsed;
}

/** Heap and resident memory after a full GC. */
function memory(): { heapUsed: number; rss: number } {
  gc?.();
  gc?.();
  const { heapUsed: heap, rss } = process.memoryUsage();
  return { heapUsed: heap, rss };
}

/** Paired rounds of two calls: the median µs/call of each side and the median of the pairs' b/a ratios. */
async function paired(a: () => Promise<unknown>, b: () => Promise<unknown>, calls: number): Promise<{ a: number; b: number; ratio: number }> {
  const as: number[] = [];
  const bs: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let ta: number;
    let tb: number;
    if (round % 2 === 0) {
      ta = await perCall(a, calls);
      tb = await perCall(b, calls);
    } else {
      tb = await perCall(b, calls);
      ta = await perCall(a, calls);
    }
    as.push(ta);
    bs.push(tb);
    ratios.push(tb / ta);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios) };
}

/** How many before/after pairs (a0) runs, each build for FETCH_MS in its own process. */
const FETCH_PAIRS = 6;
const FETCH_MS = 2000;

/** A child process's script: a bare `api.fetch` POST in a loop for a while (after a warm-up), printing req/s. */
const FETCH_RATE_SCRIPT = `
const [dir, ms] = process.argv.slice(1);
const { pathToFileURL } = await import("node:url");
const { createMockApi } = await import(pathToFileURL(dir + "/mock/core.js").href);
const api = createMockApi({ apiKeys: ["${KEY}"], seed: 5 });
const url = api.baseUrl + "/v0/prospect_logs";
const init = { method: "POST", headers: { "x-api-key": "${KEY}", "content-type": "application/json" }, body: ${JSON.stringify(JSON.stringify(BODY))} };
const call = async () => { const response = await api.fetch(url, init); if (response.status !== 201) throw new Error(String(response.status)); await response.json(); };
for (let i = 0; i < 3000; i++) await call();
let n = 0;
const started = performance.now();
while (performance.now() - started < Number(ms)) { await call(); n++; }
console.log(n / ((performance.now() - started) / 1000));
`;

/** The req/s of a bare `api.fetch` POST with the build in `dir`, measured in a fresh process. */
async function fetchRate(dir: string): Promise<number> {
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", FETCH_RATE_SCRIPT, dir, String(FETCH_MS)]);
  const value = Number(stdout.trim());
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`api.fetch rate of ${dir}: ${stdout}`);
  return value;
}

/** A mock holding `logs` stored logs, each with its own prospect, seeded through the state API (the same code as the HTTP path). */
function mockWith(mock: Mock, logs: number) {
  const api = mock.createMockApi({ apiKeys: [KEY], seed: 1, now: () => Date.parse("2024-02-29T12:00:00.000Z") });
  for (let i = 0; i < logs; i++)
    api.state.prospectLogs.create({ source: "seed", payload: { i }, email: `p${i}@example.com`, idempotencyKey: `seed-${i}` });
  return api;
}

const benchmark: Benchmark = {
  name: "mock",
  async run() {
    const sdk = (await import(new URL("../../dist/index.js", import.meta.url).href)) as Sdk;
    const mock = (await import(new URL("../../dist/mock/index.js", import.meta.url).href)) as Mock;
    const { setupServer } = await import("msw/node");
    const rows = [];

    // (a0) a bare api.fetch POST, this build vs an earlier one (PROSPECTKIT_BENCH_BASELINE=<its dist/ directory>).
    // Each build runs in its own process (two bundles in one process share undici's and zod's
    // inline caches, which favours whichever warmed them), alternating, in paired rounds.
    const baselineDir = process.env["PROSPECTKIT_BENCH_BASELINE"];
    const distDir = fileURLToPath(new URL("../../dist", import.meta.url));
    const rate = (perSecond: number) => `${Math.round(perSecond).toLocaleString("en")} req/s`;
    if (baselineDir === undefined) {
      const alone = median([await fetchRate(distDir), await fetchRate(distDir), await fetchRate(distDir)]);
      rows.push(info("(a0) api.fetch POST in process (set PROSPECTKIT_BENCH_BASELINE=<dist dir> to compare a build)", rate(alone)));
    } else {
      const befores: number[] = [];
      const afters: number[] = [];
      const ratios: number[] = [];
      for (let pair = 0; pair < FETCH_PAIRS; pair++) {
        // Order alternates: even pairs run the baseline first, odd pairs this build first.
        const first = await fetchRate(pair % 2 === 0 ? baselineDir : distDir);
        const second = await fetchRate(pair % 2 === 0 ? distDir : baselineDir);
        const [before, after] = pair % 2 === 0 ? [first, second] : [second, first];
        befores.push(before);
        afters.push(after);
        ratios.push(after / before);
      }
      rows.push(
        atLeast(
          `(a0) api.fetch POST in process, this build vs PROSPECTKIT_BENCH_BASELINE (must not be slower; ${FETCH_PAIRS} pairs, ratios ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`,
          rate(median(afters)),
          rate(median(befores)),
          median(ratios),
          1,
        ),
      );
    }

    // (a) and (b): the SDK through api.fetch, and through MSW setupServer with msw 3.
    const direct = mock.createMockApi({ apiKeys: [KEY], seed: 1 });
    const directClient = sdk.createClient({ apiKey: KEY, baseUrl: direct.baseUrl, fetch: direct.fetch });
    const intercepted = mock.createMockApi({ apiKeys: [KEY], seed: 2, baseUrl: "https://msw.bench.test" });
    const server = setupServer(...intercepted.handlers);
    server.listen({ onUnhandledFrame: "error" });
    const mswClient = sdk.createClient({ apiKey: KEY, baseUrl: intercepted.baseUrl });
    try {
      await perCall(() => directClient.createProspectLog(BODY), 1000);
      await perCall(() => mswClient.createProspectLog(BODY), 300);
      const {
        a: viaFetch,
        b: viaMsw,
        ratio,
      } = await paired(
        () => directClient.createProspectLog(BODY),
        () => mswClient.createProspectLog(BODY),
        60,
      );
      const rps = (us: number) => `${Math.round(1e6 / us).toLocaleString("en")} req/s`;
      rows.push(info("(a) SDK createProspectLog via api.fetch", `${rps(viaFetch)} (${viaFetch.toFixed(0)} µs/call)`));
      rows.push(info("(b) SDK createProspectLog via MSW setupServer, msw 3", `${rps(viaMsw)} (${viaMsw.toFixed(0)} µs/call)`));
      rows.push(atLeast("(a)/(b) api.fetch speed-up over msw 3 interception", rps(viaFetch), rps(viaMsw), ratio, 1));

      const before = heapUsed();
      const n = 2000;
      for (let i = 0; i < n; i++) await mswClient.createProspectLog(BODY);
      const perRequest = (heapUsed() - before) / n;
      const stored = intercepted.state.prospectLogs.list().length;
      rows.push(
        info(
          "(b) heap retained per request through msw 3 setupServer (mock state included)",
          `${(perRequest / 1024).toFixed(1)} kB`,
          `${stored} logs stored`,
        ),
      );
    } finally {
      server.close();
    }

    // (c) per-request time with 1,000 vs 1,000,000 stored logs; (d) the memory the 1,000,000 take.
    const few = mockWith(mock, 1_000);
    const empty = memory();
    const many = mockWith(mock, STORED);
    const full = memory();
    const fewClient = sdk.createClient({ apiKey: KEY, baseUrl: few.baseUrl, fetch: few.fetch });
    const manyClient = sdk.createClient({ apiKey: KEY, baseUrl: many.baseUrl, fetch: many.fetch });
    await perCall(() => fewClient.createProspectLog(BODY), 500);
    await perCall(() => manyClient.createProspectLog(BODY), 500);
    const scaling = await paired(
      () => fewClient.createProspectLog(BODY),
      () => manyClient.createProspectLog(BODY),
      200,
    );
    rows.push(
      atMost("(c) µs/request with 1,000,000 vs 1,000 stored logs", `${scaling.b.toFixed(1)} µs`, `${scaling.a.toFixed(1)} µs`, scaling.ratio, 1.2),
    );
    const perStored = (bytes: number) => bytes / STORED;
    const what = "each with its own prospect (an email) and idempotency record, payload {i}";
    rows.push(
      info(
        `(d) heap per stored log, over ${STORED.toLocaleString("en")} (${what})${gc ? "" : " [no --expose-gc]"}`,
        `${perStored(full.heapUsed - empty.heapUsed).toFixed(0)} B`,
      ),
    );
    rows.push(
      atMost(
        `(d) resident memory (RSS) per stored log, over ${STORED.toLocaleString("en")} (${what})`,
        `${perStored(full.rss - empty.rss).toFixed(0)} B`,
        "1024 B",
        perStored(full.rss - empty.rss) / 1024,
        1,
      ),
    );
    if (many.state.prospectLogs.list().length < STORED) throw new TypeError("the stored logs were lost"); // keeps `many` alive until here

    // (d) retained heap per stored log, through the SDK and api.fetch (new prospect, request log), empty payload.
    const fresh = mock.createMockApi({ apiKeys: [KEY], seed: 3 });
    const freshClient = sdk.createClient({ apiKey: KEY, baseUrl: fresh.baseUrl, fetch: fresh.fetch });
    await freshClient.createProspectLog({ source: "crm", payload: {} });
    const count = 50_000;
    const start = heapUsed();
    for (let i = 0; i < count; i++) await freshClient.createProspectLog({ source: "crm", payload: {} });
    const perLog = (heapUsed() - start) / count;
    rows.push(
      atMost(
        `(d) retained heap per stored log through the SDK and api.fetch, 50,000 (new prospect, request log; payload {})${gc ? "" : " [no --expose-gc]"}`,
        `${perLog.toFixed(0)} B`,
        "1024 B",
        perLog / 1024,
        1,
      ),
    );
    return rows;
  },
};

export default benchmark;
