/**
 * Issue 4's benchmark, on the BUILT package: (a) req/s of `client.createProspectLog` through
 * `api.fetch`, (b) the same through MSW `setupServer` (msw 3), (c) the per-request time with
 * 1,000 and with 100,000 stored logs, (d) the heap retained per stored log. Every ratio is
 * measured against its baseline in the same run, over paired rounds (see `paired`).
 * Run with `node --expose-gc` (the bench script does) so heap figures are taken after a full GC.
 */
import { atLeast, atMost, type Benchmark, info, median } from "./report.ts";

type Sdk = typeof import("../../src/index.ts");
type Mock = typeof import("../../mock/index.ts");

const KEY = "pk_bench_mock";
const BODY = { source: "crm", payload: { stage: "demo", score: 42 }, email: "bench@example.com" };
/** Paired rounds: each pair runs both sides back to back (order alternating); the figure is the median of the pairs' ratios, which a noisy 2-core machine disturbs least. */
const ROUNDS = 31;

const gc = (globalThis as { gc?: () => void }).gc;

/** Mean µs per call of `calls` sequential calls. */
async function perCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
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

/** A mock holding `logs` stored logs, each with its own prospect, seeded through the state API (the same code as the HTTP path). */
function mockWith(mock: Mock, logs: number) {
  const api = mock.createMockApi({ apiKeys: [KEY], seed: 1, now: () => Date.parse("2024-02-29T12:00:00.000Z") });
  for (let i = 0; i < logs; i++) api.state.prospectLogs.create({ source: "seed", payload: { i }, email: `p${i}@example.com`, idempotencyKey: `seed-${i}` });
  return api;
}

const benchmark: Benchmark = {
  name: "mock",
  async run() {
    const sdk = (await import(new URL("../../dist/index.js", import.meta.url).href)) as Sdk;
    const mock = (await import(new URL("../../dist/mock/index.js", import.meta.url).href)) as Mock;
    const { setupServer } = await import("msw/node");
    const rows = [];

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
      const { a: viaFetch, b: viaMsw, ratio } = await paired(() => directClient.createProspectLog(BODY), () => mswClient.createProspectLog(BODY), 60);
      const rps = (us: number) => `${Math.round(1e6 / us).toLocaleString("en")} req/s`;
      rows.push(info("(a) SDK createProspectLog via api.fetch", `${rps(viaFetch)} (${viaFetch.toFixed(0)} µs/call)`));
      rows.push(info("(b) SDK createProspectLog via MSW setupServer, msw 3", `${rps(viaMsw)} (${viaMsw.toFixed(0)} µs/call)`));
      rows.push(atLeast("(a)/(b) api.fetch speed-up over msw 3 interception", rps(viaFetch), rps(viaMsw), ratio, 1));

      const before = heapUsed();
      const n = 2000;
      for (let i = 0; i < n; i++) await mswClient.createProspectLog(BODY);
      const perRequest = (heapUsed() - before) / n;
      const stored = intercepted.state.prospectLogs.list().length;
      rows.push(info("(b) heap retained per request through msw 3 setupServer (mock state included)", `${(perRequest / 1024).toFixed(1)} kB`, `${stored} logs stored`));
    } finally {
      server.close();
    }

    // (c) per-request time with 1,000 vs 100,000 stored logs.
    const few = mockWith(mock, 1_000);
    const many = mockWith(mock, 100_000);
    const fewClient = sdk.createClient({ apiKey: KEY, baseUrl: few.baseUrl, fetch: few.fetch });
    const manyClient = sdk.createClient({ apiKey: KEY, baseUrl: many.baseUrl, fetch: many.fetch });
    await perCall(() => fewClient.createProspectLog(BODY), 500);
    await perCall(() => manyClient.createProspectLog(BODY), 500);
    const scaling = await paired(() => fewClient.createProspectLog(BODY), () => manyClient.createProspectLog(BODY), 200);
    rows.push(atMost("(c) µs/request with 100,000 vs 1,000 stored logs", `${scaling.b.toFixed(1)} µs`, `${scaling.a.toFixed(1)} µs`, scaling.ratio, 1.2));

    // (d) retained heap per stored log, through the SDK and api.fetch (request log and idempotency record included), empty payload.
    const fresh = mock.createMockApi({ apiKeys: [KEY], seed: 3 });
    const freshClient = sdk.createClient({ apiKey: KEY, baseUrl: fresh.baseUrl, fetch: fresh.fetch });
    await freshClient.createProspectLog({ source: "crm", payload: {} });
    const count = 50_000;
    const start = heapUsed();
    for (let i = 0; i < count; i++) await freshClient.createProspectLog({ source: "crm", payload: {} });
    const perLog = (heapUsed() - start) / count;
    rows.push(
      atMost(
        `(d) retained heap per stored log (new prospect, idempotency record, request log; payload {})${gc ? "" : " [no --expose-gc]"}`,
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
