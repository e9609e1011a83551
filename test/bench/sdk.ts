/**
 * Issue 3's and 23's benchmark: the per-call time of `client.createProspectLog` (the BUILT package)
 * against raw `fetch` + `JSON.parse` sending the same request to the same local node:http server,
 * in the same run. The calls run in interleaved blocks (raw, SDK, SDK, raw, ...), so both sides see
 * the same load on a shared 2-core machine; each side's figure is the median of its blocks, and the
 * ratio row names the spread of the per-round ratios. Beside them, ofetch alone (the SDK's
 * transport, set up as the SDK sets it up, without the SDK's timeout, validation and policy) shows
 * what the transport itself costs, over the socket and in memory.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { atMost, type Benchmark, type BenchRow, info, median } from "./report.ts";

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

/** ofetch's platform-neutral build, the one the SDK bundles. */
const OFETCH = new URL("../../node_modules/ofetch/dist/index.mjs", import.meta.url).href;

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
  const turns = loopCount();
  const cpu = threadCpu();
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  const wall = Number(process.hrtime.bigint() - started) / 1000 / calls;
  cpuTimes.get(call)?.push((threadCpu() - cpu) / calls);
  loopTurns.get(call)?.push((loopCount() - turns) / calls);
  return wall;
}

/**
 * How many times libuv's event loop has turned in this thread. Time a call spends waiting (an
 * extra turn for a timer, a stream read in another mode) shows here, and a loaded machine does not
 * change it, unlike wall time; a CPU profile does not show waiting at all.
 */
function loopCount(): number {
  return (performance as unknown as { nodeTiming: { uvMetricsInfo: { loopCount: number } } }).nodeTiming.uvMetricsInfo.loopCount;
}

/**
 * This thread's CPU time in µs. Over the socket the server runs on the same thread, so a block's
 * CPU time is the whole exchange's work, without the time the thread waited for the CPU on a
 * busy machine (which wall time includes); the two agree on a quiet one.
 */
function threadCpu(): number {
  const { user, system } = (process as unknown as { threadCpuUsage(): { user: number; system: number } }).threadCpuUsage();
  return user + system;
}

/** The CPU time per call of each block, for the sides registered here. */
const cpuTimes = new Map<() => Promise<unknown>, number[]>();

/** The event-loop turns per call of each block, for the sides registered here. */
const loopTurns = new Map<() => Promise<unknown>, number[]>();

type Call = () => Promise<unknown>;

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** An ofetch instance set up as the SDK's transport is (src/attempt.ts). */
async function transportLike(baseUrl: string, fetch: Fetch | undefined) {
  const { createFetch } = (await import(OFETCH)) as typeof import("ofetch");
  return createFetch({
    fetch: (fetch as typeof globalThis.fetch | undefined) ?? ((url, init) => globalThis.fetch(url, init)),
    defaults: { baseURL: baseUrl, retry: false, responseType: "text", ignoreResponseError: true, redirect: "manual" },
  });
}

/** The SDK's request headers, as the bench's other sides send them. */
const HEADERS = { accept: "application/json", "x-api-key": API_KEY };

/**
 * The same request through ofetch alone, set up as the SDK's transport is: the SDK's headers, a
 * JSON body that ofetch serialises, the body read as text and parsed once.
 */
async function ofetchAlone(baseUrl: string, fetch?: Fetch): Promise<Call> {
  const $fetch = await transportLike(baseUrl, fetch);
  const headers = HEADERS;
  return async () => {
    const response = await $fetch.raw<string, "text">("/v0/prospect_logs", {
      method: "POST",
      headers,
      body: { ...BODY, idempotencyKey: "5f0c1a8e-3b7d-4e29-9c41-8d2b6a7e0f13" },
    });
    return JSON.parse(response._data ?? "") as unknown;
  };
}

/**
 * The floor of any SDK with the SDK's guarantees on ofetch: ofetch set up as above, plus what the
 * SDK must do on every call and cannot leave out: validate the request body and the response
 * (both on by default), add an idempotency key, and give the attempt its own AbortController and
 * a timer raced with it (so a timeout also covers the body read). Nothing else: no retry policy,
 * hooks, redaction, error classes or input conversion. Bench code only, to say how much of the
 * SDK's cost is the floor's.
 */
async function floorCall(sdk: Sdk, baseUrl: string, fetch?: Fetch): Promise<Call> {
  const $fetch = await transportLike(baseUrl, fetch);
  const headers = HEADERS;
  return async () => {
    if (!sdk.ProspectLogCreate.safeParse(BODY).success) throw new TypeError("the floor's request is invalid");
    const controller = new AbortController();
    let stop!: (reason: unknown) => void;
    const stopped = new Promise<never>((_, reject) => {
      stop = reject;
    });
    const timer = setTimeout(() => {
      controller.abort();
      stop(controller.signal.reason);
    }, 60_000);
    try {
      const body = { ...BODY, idempotencyKey: crypto.randomUUID() };
      const response = await Promise.race([
        $fetch.raw<string, "text">("/v0/prospect_logs", { method: "POST", headers, body, signal: controller.signal }),
        stopped,
      ]);
      const data = JSON.parse(response._data ?? "") as unknown;
      if (!sdk.ProspectLog.safeParse(data).success) throw new TypeError("the floor's result is invalid");
      return data;
    } finally {
      clearTimeout(timer);
    }
  };
}

interface CpuMedians {
  raw: number;
  sdk: number;
  floor: number;
}

/** The median CPU time per call of the raw side, the SDK and the floor. */
function cpuMedians(raw: Call, viaSdk: Call, floor: Call): CpuMedians {
  return { raw: median(cpuTimes.get(raw)!), sdk: median(cpuTimes.get(viaSdk)!), floor: median(cpuTimes.get(floor)!) };
}

/** Runs `sides` in interleaved blocks (the order alternating per round) and returns each side's block times. */
async function interleaved(sides: Call[], rounds: number, block: number): Promise<number[][]> {
  for (const side of sides) {
    cpuTimes.set(side, []);
    loopTurns.set(side, []);
  }
  const times: number[][] = sides.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const side of order) times[side]!.push(await perCall(sides[side]!, block));
  }
  return times;
}

/** The 25th and 75th percentiles of the per-round ratios of two sides' blocks, as "a-b". */
function pairSpread(value: number[], baseline: number[]): string {
  const ratios = value.map((v, i) => v / baseline[i]!).sort((a, b) => a - b);
  const at = (p: number) => ratios[Math.round(p * (ratios.length - 1))]!.toFixed(2);
  return `${at(0.25)}-${at(0.75)}`;
}

/**
 * The SDK's own CPU cost: every side calls an injected fetch that answers from memory, so what
 * remains is request building, validation, idempotency key, timers and response parsing, and for
 * ofetch alone what the transport adds.
 */
async function inMemory(sdk: Sdk): Promise<{ sdk: number; raw: number; ofetch: number; floor: number; spread: string; cpu: CpuMedians }> {
  const fetch = async () => new Response(RESULT, { status: 201, headers: { "content-type": "application/json", "x-request-id": "req_bench" } });
  const client = sdk.createClient({ apiKey: API_KEY, baseUrl: "http://in-memory.example", fetch });
  const raw = async () => {
    const response = await fetch();
    void JSON.stringify({ ...BODY, idempotencyKey: "5f0c1a8e-3b7d-4e29-9c41-8d2b6a7e0f13" });
    return JSON.parse(await response.text()) as unknown;
  };
  const viaSdk = () => client.createProspectLog(BODY);
  const transport = await ofetchAlone("http://in-memory.example", fetch);
  const floor = await floorCall(sdk, "http://in-memory.example", fetch);
  const sides = [raw, viaSdk, transport, floor];
  for (const warm of sides) await perCall(warm, 20_000);
  const [rawTimes, sdkTimes, ofetchTimes, floorTimes] = (await interleaved(sides, 15, 5000)) as [number[], number[], number[], number[]];
  const own = sdkTimes.map((time, i) => time - rawTimes[i]!).sort((a, b) => a - b);
  const spread = `${own[Math.round(0.25 * (own.length - 1))]!.toFixed(1)}-${own[Math.round(0.75 * (own.length - 1))]!.toFixed(1)} µs`;
  return {
    sdk: median(sdkTimes),
    raw: median(rawTimes),
    ofetch: median(ofetchTimes),
    floor: median(floorTimes),
    spread,
    cpu: cpuMedians(raw, viaSdk, floor),
  };
}

/** An informational row of two times in µs per call and their ratio. */
function versus(figure: string, value: number, baseline: number, digits = 1): BenchRow {
  return info(figure, `${value.toFixed(digits)} µs`, `${baseline.toFixed(digits)} µs`, value / baseline);
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
      const transport = await ofetchAlone(server.url);
      const floor = await floorCall(sdk, server.url);
      for (const check of [await viaSdk(), await transport(), await floor()]) {
        if ((check as { prospectId?: string }).prospectId !== `prospect_${ULID}`) throw new TypeError("a side returned an unexpected result");
      }

      const sides = [raw, viaSdk, rawWithTimeout, transport, floor];
      for (const warm of sides) await perCall(warm, WARMUP);
      // Interleaved blocks, the order alternating per round, so load from other processes hits every side alike.
      const times = (await interleaved(sides, PAIRS, BLOCK)) as [number[], number[], number[], number[], number[]];
      const [rawMedian, sdkMedian, timeoutMedian, ofetchMedian, floorMedian] = times.map(median) as [number, number, number, number, number];
      const socketCpu = cpuMedians(raw, viaSdk, floor);
      const cpu = await inMemory(sdk);
      return [
        atMost(
          `createProspectLog via SDK vs raw fetch + JSON.parse, µs/call (median of blocks; pair ratios ${pairSpread(times[1], times[0])})`,
          `${sdkMedian.toFixed(1)} µs`,
          `${rawMedian.toFixed(1)} µs`,
          sdkMedian / rawMedian,
          1.1,
        ),
        info("SDK overhead per call (difference of the medians)", `${(sdkMedian - rawMedian).toFixed(1)} µs`, `${PAIRS} rounds × ${BLOCK} calls`),
        versus("the same in CPU time of the thread (client and server), µs/call: SDK vs raw", socketCpu.sdk, socketCpu.raw),
        versus("and the floor vs raw, in CPU time", socketCpu.floor, socketCpu.raw),
        info(
          "event-loop turns per call over the socket: SDK vs raw (median of blocks; the same for any load)",
          median(loopTurns.get(viaSdk)!).toFixed(2),
          median(loopTurns.get(raw)!).toFixed(2),
          median(loopTurns.get(viaSdk)!) / median(loopTurns.get(raw)!),
        ),
        versus(
          `createProspectLog via SDK vs raw fetch with an AbortSignal.timeout (a timeout is part of the SDK's floor), µs/call (pair ratios ${pairSpread(times[1], times[2])})`,
          sdkMedian,
          timeoutMedian,
        ),
        versus(
          `ofetch alone, set up as the SDK's transport (no timeout, validation or policy), µs/call (pair ratios ${pairSpread(times[3], times[0])})`,
          ofetchMedian,
          rawMedian,
        ),
        versus(
          `the floor: ofetch + a timer and an abort per attempt + both validations + an idempotency key, µs/call (pair ratios ${pairSpread(times[4], times[0])})`,
          floorMedian,
          rawMedian,
        ),
        versus(`createProspectLog via SDK vs the floor, µs/call (pair ratios ${pairSpread(times[1], times[4])})`, sdkMedian, floorMedian),
        versus("raw fetch with an AbortSignal.timeout, µs/call (what any timeout costs in undici)", timeoutMedian, rawMedian),
        versus("the same without a network: an injected fetch answering from memory, µs/call", cpu.sdk, cpu.raw, 2),
        // An absolute target (issue 23): the SDK's own work per call, on top of the raw side's; the ratio column holds the µs.
        atMost(
          `the SDK's own cost in memory, µs/call (SDK minus raw, medians; per-round spread ${cpu.spread})`,
          `${(cpu.sdk - cpu.raw).toFixed(2)} µs`,
          `${cpu.raw.toFixed(2)} µs raw`,
          cpu.sdk - cpu.raw,
          8,
        ),
        info(
          "ofetch alone in memory: what the transport adds to raw, µs/call",
          `${(cpu.ofetch - cpu.raw).toFixed(2)} µs`,
          `${cpu.raw.toFixed(2)} µs raw`,
          cpu.ofetch - cpu.raw,
        ),
        info(
          "the floor in memory (as over the socket): what it adds to raw, µs/call",
          `${(cpu.floor - cpu.raw).toFixed(2)} µs`,
          `${cpu.raw.toFixed(2)} µs raw`,
          cpu.floor - cpu.raw,
        ),
      ];
    } finally {
      await server.close();
    }
  },
};

export default benchmark;
