/**
 * How the HTTP benchmarks measure one server against another (test/bench/README.md explains it
 * for readers of the report):
 *
 * - **Pinned.** On a machine with two or more cores and `taskset` (util-linux), every server under
 *   test runs on the last core and this process, with autocannon, on the first: the load generator
 *   and the server no longer take turns on one core, which is what made a pair's ratio swing from
 *   0.4 to 0.9 on the same build. Elsewhere nothing is pinned, and the A/A row says so.
 * - **Short interleaved pairs.** A and B are loaded one after the other, {@link PAIRS} pairs of
 *   {@link PAIR_SECONDS} s, the order alternating (AB, BA, AB, ...), so a drift in the machine's
 *   load falls on both sides alike. Each row is the median of the pairs' ratios B/A, with their
 *   interquartile range.
 * - **An A/A row first.** Bare node:http against a second copy of itself, the same way: it must
 *   read 1.00 ± {@link AA_BAND}. When it does not, the machine is too noisy to tell the server's
 *   rows apart from chance, and every row of a server benchmark is printed without a verdict
 *   ({@link judged}).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { type BenchRow, info } from "./report.ts";

/** One request autocannon sends; `setupRequest` may change it before each send (autocannon ships no types). */
export interface Load {
  readonly method: "GET" | "POST" | "PATCH";
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** A new body for every request (e.g. a new prospect each time). */
  readonly nextBody?: () => string;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
/** autocannon's run: with a callback it returns its tracker, which emits every response with its time in ms (a fraction). */
type Autocannon = ((options: Record<string, unknown>) => Promise<AutocannonResult>) &
  ((options: Record<string, unknown>, done: (error: Error | null, result: AutocannonResult) => void) => NodeJS.EventEmitter);
export const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** The load: 20 connections (the p99 target is stated for 20). */
export const CONNECTIONS = 20;
/** Pairs per row: enough for quartiles that mean something, short enough for the whole bench to take minutes. */
export const PAIRS = 12;
/** Seconds per side of a pair. */
export const PAIR_SECONDS = 1;
/** How far from 1.00 the A/A row's median may read before nothing is judged. */
export const AA_BAND = 0.05;

/** The cores: the load generator's and the servers', or none when this machine cannot pin. */
const CORES = (() => {
  const count = availableParallelism();
  if (count < 2 || process.platform !== "linux") return undefined;
  if (spawnSync("taskset", ["--version"], { stdio: "ignore" }).status !== 0) return undefined;
  return { load: "0", server: String(count - 1) };
})();
let selfPinned = false;

/** How the servers and the load generator run, for the report. */
export const PINNING =
  CORES === undefined
    ? `not pinned (${availableParallelism()} core(s)${process.platform === "linux" ? ", or no taskset" : ""}): servers and autocannon share the cores`
    : `servers pinned to core ${CORES.server}, autocannon (this process) to core ${CORES.load} with taskset`;

/** A server process and the URL it listens on. */
export interface Running {
  readonly url: string;
  readonly child: ChildProcess;
}

/**
 * Starts a process that prints `listening on <url>`, on the servers' core when pinning is
 * possible (taskset execs node, so the child's pid is node's). The first call also pins this
 * process, and with it autocannon, to the load generator's core.
 * @param args - node's arguments
 */
export function launch(args: string[]): Promise<Running> {
  if (CORES !== undefined && !selfPinned) {
    selfPinned = true;
    const pinned = spawnSync("taskset", ["--all-tasks", "--cpu-list", "--pid", CORES.load, String(process.pid)], { stdio: "ignore" });
    if (pinned.status !== 0) throw new TypeError(`taskset could not pin the bench to core ${CORES.load}`);
  }
  const child =
    CORES === undefined
      ? spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] })
      : spawn("taskset", ["--cpu-list", CORES.server, process.execPath, ...args], { stdio: ["ignore", "pipe", "inherit"] });
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

/**
 * Starts a bare node:http server answering `body` (after `workUs` µs of busy work, when given).
 * @param body - the fixed answer
 * @param workUs - busy work per request, in microseconds
 */
export const launchBare = (body: string, workUs?: number) => launch(["-e", BARE_SERVER, body, ...(workUs === undefined ? [] : [String(workUs)])]);

/** The autocannon options of one load (a `setupRequest` when each request has its own body). */
export function loadOptions(url: string, options: Load, connections: number, seconds: number): Record<string, unknown> {
  const { nextBody, ...request } = options;
  return {
    url,
    connections,
    duration: seconds,
    ...request,
    ...(nextBody !== undefined && { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: nextBody() }) }] }),
  };
}

/**
 * One load: its rate and its p99 latency in milliseconds, exact. autocannon's own percentiles come
 * from a histogram of whole milliseconds (a bare server's sub-millisecond p99 would read 0), so
 * every response's own time is kept and ranked here.
 */
function load(url: string, options: Load, seconds: number): Promise<{ rps: number; p99: number }> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const tracker = autocannon(loadOptions(url, options, CONNECTIONS, seconds), (error, result) => {
      if (error !== null) return reject(error);
      if (result.non2xx > 0 || result.errors > 0)
        return reject(new TypeError(`${options.method} ${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`));
      resolve({ rps: result.requests.total / seconds, p99: percentile(times, 0.99) });
    });
    tracker.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => times.push(ms));
  });
}

/**
 * The nearest-rank percentile of a list of numbers.
 * @param values - the numbers (sorted in place)
 * @param fraction - e.g. 0.99
 */
export function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  values.sort((a, b) => a - b);
  return values[Math.min(values.length - 1, Math.ceil(fraction * values.length) - 1)]!;
}

/** A median with its interquartile range. */
export interface Spread {
  readonly median: number;
  readonly q1: number;
  readonly q3: number;
}

/**
 * The median and quartiles of a list (linear interpolation between ranks).
 * @param values - the numbers
 */
export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => {
    const rank = fraction * (sorted.length - 1);
    const low = Math.floor(rank);
    return sorted[low]! + (sorted[Math.min(low + 1, sorted.length - 1)]! - sorted[low]!) * (rank - low);
  };
  return { median: at(0.5), q1: at(0.25), q3: at(0.75) };
}

/** What {@link paired} measured: each side's median rate and p99, and the pairs' ratios B/A. */
export interface Paired {
  /** A's requests per second (median over the pairs). */
  readonly bare: number;
  /** B's requests per second (median over the pairs). */
  readonly server: number;
  /** B/A requests per second, per pair. */
  readonly ratio: Spread;
  /** B's and A's p99 latency in ms (medians), and B/A per pair. */
  readonly p99: number;
  readonly bareP99: number;
  readonly p99Ratio: Spread;
}

/**
 * Short interleaved pairs of A (a baseline) and B (the server measured), after one warm-up each.
 * @param a - the baseline's URL
 * @param b - the measured server's URL
 * @param options - the load
 */
export async function paired(a: string, b: string, options: Load): Promise<Paired> {
  await load(a, options, PAIR_SECONDS);
  await load(b, options, PAIR_SECONDS);
  const sides = { a: [] as { rps: number; p99: number }[], b: [] as { rps: number; p99: number }[] };
  for (let pair = 0; pair < PAIRS; pair++) {
    const order = pair % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const);
    for (const side of order) sides[side].push(await load(side === "a" ? a : b, options, PAIR_SECONDS));
  }
  const ratios = (key: "rps" | "p99") => sides.b.map((run, i) => run[key] / sides.a[i]![key]);
  const middle = (runs: { rps: number; p99: number }[], key: "rps" | "p99") => spread(runs.map((run) => run[key])).median;
  return {
    bare: middle(sides.a, "rps"),
    server: middle(sides.b, "rps"),
    ratio: spread(ratios("rps")),
    p99: middle(sides.b, "p99"),
    bareP99: middle(sides.a, "p99"),
    p99Ratio: spread(ratios("p99")),
  };
}

/** The A/A check: its row and whether the server rows may be judged. */
export interface AA {
  readonly row: BenchRow;
  readonly ok: boolean;
}
let aa: Promise<AA> | undefined;

/**
 * The A/A row, measured once per run (the first server benchmark measures it, the others reuse
 * it): bare node:http against a second bare node:http, GET, the same pairs as every row.
 */
export function aaCheck(): Promise<AA> {
  aa ??= (async () => {
    const body = JSON.stringify({ id: "page_demo", title: "A/A" });
    const [first, second] = [await launchBare(body), await launchBare(body)];
    try {
      const result = await paired(first.url, second.url, { method: "GET", headers: {} });
      const ok = Math.abs(result.ratio.median - 1) <= AA_BAND;
      const row: BenchRow = {
        ...info(
          `A/A: bare node:http vs a second bare node:http, GET (${PINNING}); ${ok ? "within the band: the server rows are judged" : "OUT OF THE BAND: the machine is too noisy, no server row is judged"}`,
          rps(result.server),
          rps(result.bare),
          result.ratio.median,
        ),
        iqr: [result.ratio.q1, result.ratio.q3],
        target: `1.00 ± ${AA_BAND.toFixed(2)}`,
        pass: ok,
      };
      return { row, ok };
    } finally {
      for (const running of [first, second]) running.child.kill("SIGTERM");
    }
  })();
  return aa;
}

/**
 * A server benchmark's rows as the A/A check allows: unchanged when it passed, else without a
 * verdict (their target marked "not judged") and preceded by a row that says why.
 * @param rows - the rows measured
 */
export async function judged(rows: BenchRow[]): Promise<BenchRow[]> {
  const { ok, row } = await aaCheck();
  if (ok) return rows;
  return [
    info(`not judged: the A/A row read ${row.ratio.toFixed(2)}, outside 1.00 ± ${AA_BAND.toFixed(2)} (see the server section)`, ""),
    ...rows.map((r) => (r.pass === null ? r : { ...r, target: `${r.target} (not judged)`, pass: null })),
  ];
}

/**
 * Formats a rate.
 * @param value - requests per second
 */
export const rps = (value: number) => `${Math.round(value).toLocaleString("en-US")} req/s`;

/**
 * A row whose ratio is the median of pairs, with their interquartile range.
 * @param row - the row, its ratio the median
 * @param ratios - the pairs' ratios
 */
export const withIqr = (row: BenchRow, ratios: Spread): BenchRow => ({ ...row, iqr: [ratios.q1, ratios.q3] });
