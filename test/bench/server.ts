/**
 * Issues 5, 15 and 44's benchmark, on the BUILT CLI: requests per second of the standalone server
 * (`prospectkit-mock --quiet`) against a bare `node:http` server answering a fixed body, both in
 * their own process and loaded by the same autocannon (20 connections, keep-alive) in the same
 * run, in short interleaved pairs with the server pinned apart from autocannon (http-pairs.ts).
 * Every ratio row is the median of its pairs with their interquartile range, and no row is judged
 * unless the A/A row (bare against bare) reads 1.00 ± 0.05. test/bench/README.md explains each row.
 * Targets (issue 44): POST creating a new prospect each time and POST for an existing prospect
 * >= 0.6 of bare, GET page >= 0.75, PATCH subscription >= 0.65, p99 latency <= 2.5x bare's on
 * every route.
 * A calibration row runs the bare server with a fixed busy-wait per request: on a small, shared
 * machine any per-request work costs more than its CPU time (the load generator waits, and every
 * answer must wake it), and this row shows how much, measured in the same run.
 */
import { fileURLToPath } from "node:url";
import { aaCheck, CONNECTIONS, judged, type Load, launch, launchBare, PAIR_SECONDS, PAIRS, PINNING, paired, rps, withIqr } from "./http-pairs.ts";
import { atLeast, atMost, type Benchmark, info } from "./report.ts";

export const CLI = fileURLToPath(new URL("../../dist/mock/server/cli.js", import.meta.url));
export const KEY = "pk_bench_server";
export const PAGE_PATH = "/v0/page_groups/pagegroup_demo/pages/page_demo";
export const SUBSCRIPTION_PATH = "/v0/webhook_subscriptions/webhooksubscription_demo";
/** The busy work of the calibration server: about what the mock's own handler costs per GET in-process. */
const CALIBRATION_WORK_US = 20;

const JSON_HEADERS = { "x-api-key": KEY, "content-type": "application/json" };
const post = (email: string) => JSON.stringify({ source: "crm", payload: { stage: "demo", score: 42 }, email });
let newProspects = 0;
const LOADS = {
  get: { method: "GET", headers: { "x-api-key": KEY } },
  postExisting: { method: "POST", headers: JSON_HEADERS, body: post("bench@example.com") },
  postNew: { method: "POST", headers: JSON_HEADERS, body: post("new@example.com"), nextBody: () => post(`new-${newProspects++}@example.com`) },
  patch: { method: "PATCH", headers: JSON_HEADERS, body: JSON.stringify({ active: true, url: "https://example.com/hooks/bench" }) },
} satisfies Record<string, Load>;

export { LOADS };
/** The GET page load (the webhooks benchmark reuses it). */
export const GET: Load = LOADS.get;

const benchmark: Benchmark = {
  name: "server",
  async run() {
    const aa = await aaCheck();
    const server = await launch([CLI, "--port", "0", "--quiet", "--api-key", KEY]);
    const pageBody = await (await fetch(`${server.url}${PAGE_PATH}`, { headers: { "x-api-key": KEY } })).text();
    const bare = await launchBare(pageBody);
    const busy = await launchBare(pageBody, CALIBRATION_WORK_US);
    try {
      const logs = `${server.url}/v0/prospect_logs`;
      const routes = [
        {
          name: "POST /v0/prospect_logs, a new prospect each time",
          target: 0.6,
          ...(await paired(`${bare.url}/v0/prospect_logs`, logs, LOADS.postNew)),
        },
        {
          name: "POST /v0/prospect_logs, an existing prospect",
          target: 0.6,
          ...(await paired(`${bare.url}/v0/prospect_logs`, logs, LOADS.postExisting)),
        },
        { name: "GET page", target: 0.75, ...(await paired(`${bare.url}${PAGE_PATH}`, `${server.url}${PAGE_PATH}`, LOADS.get)) },
        {
          name: "PATCH webhook subscription",
          target: 0.65,
          ...(await paired(`${bare.url}${SUBSCRIPTION_PATH}`, `${server.url}${SUBSCRIPTION_PATH}`, LOADS.patch)),
        },
      ];
      const calibration = await paired(`${bare.url}${PAGE_PATH}`, `${busy.url}${PAGE_PATH}`, LOADS.get);
      const ms = (value: number) => `${value.toFixed(2)} ms`;
      return [
        aa.row,
        ...(await judged([
          ...routes.map((route) =>
            withIqr(
              atLeast(`${route.name} vs bare node:http, req/s`, rps(route.server), rps(route.bare), route.ratio.median, route.target),
              route.ratio,
            ),
          ),
          ...routes.map((route) =>
            withIqr(
              atMost(
                `p99 latency at ${CONNECTIONS} connections, exact, ${route.name} (server / bare)`,
                ms(route.p99),
                ms(route.bareP99),
                route.p99Ratio.median,
                2.5,
              ),
              route.p99Ratio,
            ),
          ),
        ])),
        withIqr(
          info(
            `calibration: bare node:http + ${CALIBRATION_WORK_US} µs of busy work per request vs bare, GET`,
            rps(calibration.server),
            rps(calibration.bare),
            calibration.ratio.median,
          ),
          calibration.ratio,
        ),
        info("load", `autocannon, ${CONNECTIONS} connections, keep-alive; ${PAIRS} interleaved pairs of ${PAIR_SECONDS} s per row; ${PINNING}`),
      ];
    } finally {
      for (const running of [server, bare, busy]) running.child.kill("SIGTERM");
    }
  },
};

export default benchmark;
