/**
 * Issue 3's benchmark: the per-call time of `client.createProspectLog` (the BUILT package) against
 * raw `fetch` + `JSON.parse` sending the same request to the same local node:http server, in
 * the same run. The calls run in interleaved blocks (raw, SDK, SDK, raw, ...), so both sides see the
 * same load on a shared 2-core machine; each side's figure is the median of its blocks.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { atMost, type Benchmark, info, median } from "./report.ts";

type Sdk = typeof import("../../src/index.ts");

const API_KEY = "pk_bench_0123456789abcdef";
const ULID = "01hzy8k3m4n5p6q7r8s9t0v1wx";
const RESULT = JSON.stringify({
  prospectId: `prospect_${ULID}`,
  prospectLogId: `prospectlog_${ULID}`,
  createdAt: "2024-02-29T12:00:00.000Z",
  createdProspect: false,
  source: "crm",
  type: "webhook",
});
const BODY = { source: "crm", payload: { stage: "demo", score: 42 }, email: "a@b.co" };

const WARMUP = 2000;
const BLOCK = 400;
const PAIRS = 30;

/** A server that reads the body and answers 201 with a valid result, as cheaply as it can. */
async function startServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(201, { "content-type": "application/json", "x-request-id": "req_bench", "content-length": Buffer.byteLength(RESULT) });
      res.end(RESULT);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `global.gc` when node runs with --expose-gc (npm run bench does). */
const collect = (globalThis as { gc?: () => void }).gc;

/**
 * Mean µs per call of `calls` sequential calls of `call`. A full collection first (when exposed)
 * gives every block the same clean heap, so a major GC of 50+ ms that happens to land in one
 * side's block does not decide the comparison; the minor GCs a side's own allocations cause
 * still count against it.
 */
async function perCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  collect?.();
  await new Promise((resolve) => setTimeout(resolve, 1)); // lets the FinalizationRegistry callbacks the GC queued (undici's, per signal) run outside the timing
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
}

/**
 * The SDK's own CPU cost: both sides call an injected fetch that answers from memory, so what
 * remains is request building, validation, idempotency key, timers and response parsing.
 */
async function inMemory(sdk: Sdk): Promise<{ sdk: number; raw: number }> {
  const fetch = async () => new Response(RESULT, { status: 201, headers: { "content-type": "application/json", "x-request-id": "req_bench" } });
  const client = sdk.createClient({ apiKey: API_KEY, baseUrl: "http://in-memory.example", fetch });
  const raw = async () => {
    const response = await fetch();
    void JSON.stringify({ ...BODY, idempotencyKey: "5f0c1a8e-3b7d-4e29-9c41-8d2b6a7e0f13" });
    return JSON.parse(await response.text()) as unknown;
  };
  const viaSdk = () => client.createProspectLog(BODY);
  await perCall(raw, 20_000);
  await perCall(viaSdk, 20_000);
  const rawTimes: number[] = [];
  const sdkTimes: number[] = [];
  for (let round = 0; round < 15; round++) {
    rawTimes.push(await perCall(raw, 5000));
    sdkTimes.push(await perCall(viaSdk, 5000));
  }
  return { sdk: median(sdkTimes), raw: median(rawTimes) };
}

const benchmark: Benchmark = {
  name: "sdk",
  async run() {
    const sdk = (await import(new URL("../../dist/index.js", import.meta.url).href)) as Sdk;
    const server = await startServer();
    try {
      const client = sdk.createClient({ apiKey: API_KEY, baseUrl: server.url });
      const url = `${server.url}/v0/prospect_logs`;
      // The same request by hand: same headers, same body with an idempotency key, parsed the same way.
      // With `withTimeout`, it also carries a 60 s AbortSignal.timeout, as any fetch with a timeout
      // must: that row shows what undici's AbortSignal bookkeeping costs, which the SDK pays per attempt.
      const rawRequest = (withTimeout: boolean) => async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/json", "x-api-key": API_KEY },
          body: JSON.stringify({ ...BODY, idempotencyKey: "5f0c1a8e-3b7d-4e29-9c41-8d2b6a7e0f13" }),
          ...(withTimeout && { signal: AbortSignal.timeout(60_000) }),
        });
        return JSON.parse(await response.text()) as unknown;
      };
      const raw = rawRequest(false);
      const rawWithTimeout = rawRequest(true);
      const viaSdk = () => client.createProspectLog(BODY);
      const check = await viaSdk();
      if ((check as { prospectId?: string }).prospectId !== `prospect_${ULID}`) throw new TypeError("the SDK returned an unexpected result");

      for (const warm of [raw, viaSdk, rawWithTimeout]) await perCall(warm, WARMUP);
      // Interleaved blocks, the order alternating per round, so load from other processes hits every side alike.
      const sides = [raw, viaSdk, rawWithTimeout];
      const times: number[][] = sides.map(() => []);
      for (let pair = 0; pair < PAIRS; pair++) {
        const order = pair % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
        for (const side of order) times[side]!.push(await perCall(sides[side]!, BLOCK));
      }
      const [rawMedian, sdkMedian, timeoutMedian] = times.map(median) as [number, number, number];
      const cpu = await inMemory(sdk);
      return [
        atMost(
          "createProspectLog via SDK vs raw fetch + JSON.parse, µs/call (median of blocks)",
          `${sdkMedian.toFixed(1)} µs`,
          `${rawMedian.toFixed(1)} µs`,
          sdkMedian / rawMedian,
          1.1,
        ),
        info("SDK overhead per call (difference of the medians)", `${(sdkMedian - rawMedian).toFixed(1)} µs`, `${PAIRS} rounds × ${BLOCK} calls`),
        info(
          "raw fetch with an AbortSignal.timeout, µs/call (what any timeout costs in undici)",
          `${timeoutMedian.toFixed(1)} µs`,
          `${rawMedian.toFixed(1)} µs`,
          timeoutMedian / rawMedian,
        ),
        info(
          "the same without a network: an injected fetch answering from memory, µs/call",
          `${cpu.sdk.toFixed(2)} µs`,
          `${cpu.raw.toFixed(2)} µs`,
          cpu.sdk / cpu.raw,
        ),
      ];
    } finally {
      await server.close();
    }
  },
};

export default benchmark;
