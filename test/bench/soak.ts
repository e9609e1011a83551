/**
 * Issue 15's soak (`npm run bench -- soak`, never in CI): the BUILT CLI under full-rate load for
 * 10 minutes (`PROSPECTKIT_SOAK_SECONDS` shortens it), one table row. The load mixes every
 * operation: GET page, PATCH subscription, and POST with an idempotency key from a pool of 1,000
 * (after the first pass each POST replays, storing nothing new). So the stored data stops growing
 * within the warm-up (1,000 logs; the request log fills its 10,000 entries), and any RSS growth
 * after it is memory kept per request: the target is under 5%, with no error and no non-2xx answer.
 * RSS is read from /proc (Linux) every few seconds.
 */
import { readFileSync } from "node:fs";
import { autocannon, CONNECTIONS, launch, rps } from "./http-pairs.ts";
import { atMost, type Benchmark, info } from "./report.ts";
import { CLI, KEY, LOADS, PAGE_PATH, SUBSCRIPTION_PATH } from "./server.ts";

const SECONDS = Number(process.env["PROSPECTKIT_SOAK_SECONDS"] ?? 600);
const KEYS = 1000;
const SAMPLE_MS = 5000;

/** The resident set size of a process, in bytes (Linux). */
export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kb === undefined) throw new TypeError(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

const benchmark: Benchmark = {
  name: "soak",
  onlyWhenNamed: true,
  async run() {
    if (!(Number.isFinite(SECONDS) && SECONDS >= 20)) throw new TypeError("PROSPECTKIT_SOAK_SECONDS must be at least 20");
    const server = await launch([CLI, "--port", "0", "--quiet", "--api-key", KEY]);
    const pid = server.child.pid!;
    try {
      let sent = 0;
      const headers = { "x-api-key": KEY, "content-type": "application/json" };
      const running = autocannon({
        url: server.url,
        connections: CONNECTIONS,
        duration: SECONDS,
        requests: [
          { method: "GET", path: PAGE_PATH, headers: { "x-api-key": KEY } },
          { method: "PATCH", path: SUBSCRIPTION_PATH, headers, body: LOADS.patch.body },
          {
            method: "POST",
            path: "/v0/prospect_logs",
            headers,
            setupRequest: (req: Record<string, unknown>) => {
              const n = sent++ % KEYS;
              return {
                ...req,
                body: JSON.stringify({ source: "soak", payload: { n }, email: `soak-${n}@example.com`, idempotencyKey: `soak-${n}` }),
              };
            },
          },
        ],
      });
      const warmUpMs = Math.min(60_000, (SECONDS * 1000) / 10);
      const samples: { atMs: number; rss: number }[] = [];
      const started = Date.now();
      const sampler = setInterval(() => samples.push({ atMs: Date.now() - started, rss: rssOf(pid) }), SAMPLE_MS);
      const result = await running;
      clearInterval(sampler);
      const afterWarmUp = samples.find((sample) => sample.atMs >= warmUpMs) ?? samples[0]!;
      const end = samples.at(-1)!;
      const peak = Math.max(...samples.map((sample) => sample.rss));
      const growth = end.rss / afterWarmUp.rss - 1;
      const failures = result.errors + result.non2xx + result.timeouts;
      return [
        atMost(
          `soak ${SECONDS} s at full rate (GET, PATCH, POST with 1,000 rotating idempotency keys): RSS growth after ${Math.round(warmUpMs / 1000)} s warm-up; ${result.requests.total.toLocaleString("en-US")} requests, ${rps(result.requests.average)}, ${failures} errors/non-2xx/timeouts, peak ${mb(peak)}${failures > 0 ? " [ERRORS]" : ""}`,
          `${mb(end.rss)} at end`,
          `${mb(afterWarmUp.rss)} after warm-up`,
          failures > 0 ? Number.POSITIVE_INFINITY : 1 + growth,
          1.05,
        ),
        info("soak samples (s: RSS)", samples.map((sample) => `${Math.round(sample.atMs / 1000)}: ${mb(sample.rss)}`).join(", ")),
      ];
    } finally {
      server.child.kill("SIGTERM");
    }
  },
};

export default benchmark;
