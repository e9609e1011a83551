/**
 * Issue 5's benchmark, on the BUILT CLI: requests per second of POST /v0/prospect_logs and of
 * GET page through the standalone server (`prospectkit-mock --quiet`), against a bare `node:http`
 * server answering a fixed body, both in their own process and loaded by the same autocannon in
 * the same run. Paired rounds (order alternating); each ratio is the median of the pairs' ratios.
 * Targets: >= 0.5 of the bare server for POST, >= 0.6 for GET. A calibration row runs the bare
 * server with a fixed busy-wait per request: on a small, shared machine any per-request work costs
 * more than its CPU time (the load generator waits, and every answer must wake it), and this row
 * shows how much, measured in the same run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { atLeast, type Benchmark, info, median } from "./report.ts";

/** The part of autocannon used here (it ships no types). */
interface Load {
  readonly method: "GET" | "POST";
  readonly headers: Record<string, string>;
  readonly body?: string;
}
type Autocannon = (options: Load & { url: string; connections: number; duration: number }) => Promise<{
  requests: { average: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
}>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

export const CLI = fileURLToPath(new URL("../../dist/mock/server/cli.js", import.meta.url));
export const KEY = "pk_bench_server";
const POST_BODY = JSON.stringify({ source: "crm", payload: { stage: "demo", score: 42 }, email: "bench@example.com" });
export const PAGE_PATH = "/v0/page_groups/pagegroup_demo/pages/page_demo";
const PAIRS = 5;
const SECONDS = 3;
const CONNECTIONS = 10;
/** The busy work of the calibration server: about what the mock's own handler costs per GET in-process. */
const CALIBRATION_WORK_US = 20;

/**
 * The bare baseline: node:http, the request read to its end, one fixed JSON body answered. With a
 * second argument it first busy-waits that many microseconds: a calibration of what any fixed
 * amount of per-request work costs on this machine under this load.
 */
const BARE_SERVER = `
const body = process.argv[1];
const workMs = Number(process.argv[2] ?? 0) / 1000;
const server = require("node:http").createServer((req, res) => {
  req.on("data", () => {}).on("end", () => {
    if (workMs > 0) for (const until = performance.now() + workMs; performance.now() < until; );
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port));
`;

interface Running {
  readonly url: string;
  readonly child: ChildProcess;
}

export function launch(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once("exit", (code) => reject(new TypeError(`${args.join(" ")} exited with ${code} before listening`)));
  });
}

export const GET: Load = { method: "GET", headers: { "x-api-key": KEY } };
const POST: Load = { method: "POST", headers: { "x-api-key": KEY, "content-type": "application/json" }, body: POST_BODY };

async function load(url: string, options: Load, seconds = SECONDS): Promise<{ rps: number; p99: number }> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new TypeError(`${options.method} ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** Paired rounds of bare vs server: medians of each side and of the pairs' ratios. */
export async function paired(bare: string, server: string, options: Load) {
  await load(bare, options, 1);
  await load(server, options, 1);
  const bares: number[] = [];
  const servers: number[] = [];
  const ratios: number[] = [];
  const p99s: number[] = [];
  for (let pair = 0; pair < PAIRS; pair++) {
    const first = pair % 2 === 0 ? await load(bare, options) : await load(server, options);
    const second = pair % 2 === 0 ? await load(server, options) : await load(bare, options);
    const [b, s] = pair % 2 === 0 ? [first, second] : [second, first];
    bares.push(b.rps);
    servers.push(s.rps);
    p99s.push(s.p99);
    ratios.push(s.rps / b.rps);
  }
  return { bare: median(bares), server: median(servers), ratio: median(ratios), p99: median(p99s) };
}

export const rps = (value: number) => `${Math.round(value).toLocaleString("en-US")} req/s`;

const benchmark: Benchmark = {
  name: "server",
  async run() {
    const server = await launch([CLI, "--port", "0", "--quiet", "--api-key", KEY]);
    const pageBody = await (await fetch(`${server.url}${PAGE_PATH}`, { headers: { "x-api-key": KEY } })).text();
    const bare = await launch(["-e", BARE_SERVER, pageBody]);
    const busy = await launch(["-e", BARE_SERVER, pageBody, String(CALIBRATION_WORK_US)]);
    try {
      const get = await paired(`${bare.url}${PAGE_PATH}`, `${server.url}${PAGE_PATH}`, GET);
      const post = await paired(`${bare.url}/v0/prospect_logs`, `${server.url}/v0/prospect_logs`, POST);
      const calibration = await paired(`${bare.url}${PAGE_PATH}`, `${busy.url}${PAGE_PATH}`, GET);
      return [
        atLeast("POST /v0/prospect_logs through the server vs bare node:http, req/s", rps(post.server), rps(post.bare), post.ratio, 0.5),
        atLeast("GET page through the server vs bare node:http, req/s", rps(get.server), rps(get.bare), get.ratio, 0.6),
        info(
          `calibration: bare node:http + ${CALIBRATION_WORK_US} µs of busy work per request vs bare, GET`,
          rps(calibration.server),
          rps(calibration.bare),
          calibration.ratio,
        ),
        info("server p99 latency, POST / GET", `${post.p99} ms / ${get.p99} ms`),
        info("load", `autocannon, ${CONNECTIONS} connections, ${PAIRS} pairs of ${SECONDS} s, keep-alive`),
      ];
    } finally {
      for (const running of [server, bare, busy]) running.child.kill("SIGTERM");
    }
  },
};

export default benchmark;
