/**
 * Issue 3's benchmark: the per-call time of `client.createProspectLog` (the BUILT package) against
 * raw `fetch` + `JSON.parse` sending the same request to the same local node:http server, in
 * the same run. Rounds alternate which side goes first; each side's figure is the median of its
 * rounds, so a noisy round on a 2-core machine does not decide the ratio.
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

const WARMUP = 1500;
const CALLS = 2000;
const ROUNDS = 9;

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

/** Mean µs per call of `calls` sequential calls of `call`. */
async function perCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await call();
  return Number(process.hrtime.bigint() - started) / 1000 / calls;
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
      const raw = async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/json", "x-api-key": API_KEY },
          body: JSON.stringify({ ...BODY, idempotencyKey: "5f0c1a8e-3b7d-4e29-9c41-8d2b6a7e0f13" }),
        });
        return JSON.parse(await response.text()) as unknown;
      };
      const viaSdk = () => client.createProspectLog(BODY);
      const check = await viaSdk();
      if ((check as { prospectId?: string }).prospectId !== `prospect_${ULID}`) throw new TypeError("the SDK returned an unexpected result");

      await perCall(raw, WARMUP);
      await perCall(viaSdk, WARMUP);
      const rawTimes: number[] = [];
      const sdkTimes: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        if (round % 2 === 0) {
          rawTimes.push(await perCall(raw, CALLS));
          sdkTimes.push(await perCall(viaSdk, CALLS));
        } else {
          sdkTimes.push(await perCall(viaSdk, CALLS));
          rawTimes.push(await perCall(raw, CALLS));
        }
      }
      const sdkMedian = median(sdkTimes);
      const rawMedian = median(rawTimes);
      return [
        atMost("createProspectLog via SDK vs raw fetch + JSON.parse, µs/call", `${sdkMedian.toFixed(1)} µs`, `${rawMedian.toFixed(1)} µs`, sdkMedian / rawMedian, 1.1),
        info("SDK overhead per call", `${(sdkMedian - rawMedian).toFixed(1)} µs`, `${ROUNDS} rounds × ${CALLS} calls, median`),
      ];
    } finally {
      await server.close();
    }
  },
};

export default benchmark;
