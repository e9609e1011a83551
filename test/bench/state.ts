/**
 * What `--state FILE` costs, on the BUILT package. (a) POST throughput of the CLI with `--state`
 * against the same CLI without, interleaved pairs in the same run (target >= 0.8, issue 44). (b) Start: the
 * time from spawning `prospectkit-mock --state FILE` to its banner, less a start without
 * `--state` (Node's boot and the CLI's import), per stored log, with 100,000 and with 1,000,000
 * stored logs (target <= 20 µs per log each, and linear: the 1M figure per log at most 1.25 times
 * the 100k one, in CPU time, which other work on the machine disturbs less than the wall time).
 * (c) Stop at 1,000,000 logs: SIGTERM to exit, which compacts the whole state into a new file
 * (target <= 20 µs per log). The files for (b) and (c) are written directly (synthetic-state.ts),
 * as a clean stop leaves them. (d) Memory per stored log of 100,000, each side in a fresh process
 * started with `--expose-gc` and read after full GCs: a server with a state file written live
 * and one restored from the file at start, against a server without a state file (target:
 * unchanged, <= 1.1). Resident memory is the figure; the heap is given beside it.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { CONNECTIONS, judged, launch, PAIR_SECONDS, PAIRS, paired, type Running, rps, withIqr } from "./http-pairs.ts";
import { atLeast, atMost, type Benchmark, type BenchRow, info, median } from "./report.ts";
import { CLI, KEY, LOADS } from "./server.ts";
import { writeSyntheticState } from "./synthetic-state.ts";

const run = promisify(execFile);

/** Stored logs for the memory rows, and the smaller start. */
const STORED = 100_000;
/** Stored logs for the larger start and the stop. */
const STORED_LARGE = 1_000_000;
/** Start-time spawns per side (alternating), at 100,000 logs and at 1,000,000. */
const STARTS = 5;
const STARTS_LARGE = 3;
/** The bound on start and stop per stored log, in microseconds. */
const PER_LOG_US = 20;

const args = (extra: string[] = []) => [CLI, "--port", "0", "--quiet", "--no-demo", "--no-webhooks", "--api-key", KEY, ...extra];

/**
 * A fresh process holding `STORED` logs in a `startMockServer`: written live by POST requests
 * through `api.fetch` (`plain`: no state file; `live`: with `file`) or restored from `file` (`restored`). Its memory per stored log,
 * after full GCs, against its own figure before the server started.
 */
const MEMORY_CHILD = `
const [variant, file, stored, dist, key] = process.argv.slice(1);
const { startMockServer } = await import(dist);
const headers = { "x-api-key": key, "content-type": "application/json" };
const settle = async () => {
  for (let i = 0; i < 4; i++) { globalThis.gc(); await new Promise((done) => setTimeout(done, 100)); }
  return process.memoryUsage();
};
const before = await settle();
const server = await startMockServer({ port: 0, apiKeys: [key], webhooks: { deliver: false }, ...(variant !== "plain" && { stateFile: file }) });
if (variant !== "restored") {
  for (let i = 0; i < Number(stored); i++) {
    const body = JSON.stringify({ source: "crm", payload: { stage: "demo", score: 42 }, email: "new-" + i + "@example.com" });
    const response = await server.api.fetch(server.url + "/v0/prospect_logs", { method: "POST", headers, body });
    if (response.status !== 201) throw new Error("status " + response.status);
  }
}
if (server.api.state.prospectLogs.list().length !== Number(stored)) throw new Error("wrong count");
const after = await settle();
console.log(JSON.stringify({ rss: (after.rss - before.rss) / Number(stored), heap: (after.heapUsed - before.heapUsed) / Number(stored) }));
await server.close();
`;

/** Memory per stored log of one variant (see {@link MEMORY_CHILD}), in bytes. */
async function memoryPerLog(variant: "plain" | "live" | "restored", file: string): Promise<{ rss: number; heap: number }> {
  const dist = new URL("../../dist/mock/server/index.js", import.meta.url).href;
  const { stdout } = await run(
    process.execPath,
    ["--expose-gc", "--input-type=module", "-e", MEMORY_CHILD, variant, file, String(STORED), dist, KEY],
    {
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as { rss: number; heap: number };
}

/** CPU time a process has used so far, in milliseconds (Linux: /proc/PID/stat, user + system, in clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One spawn of the CLI: wall and CPU milliseconds to its banner, and wall milliseconds from SIGTERM to its exit. */
interface StartStop {
  readonly startMs: number;
  readonly cpuMs: number;
  readonly stopMs: number;
}

/** Spawns the CLI, waits for its banner, then stops it with SIGTERM (a state file is compacted then) and waits for its exit. */
async function startStop(extra: string[]): Promise<StartStop> {
  const started = performance.now();
  const child = spawn(process.execPath, args(extra), { stdio: ["ignore", "pipe", "inherit"] });
  let cpuMs = 0;
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (!out.includes("listening on")) return;
      cpuMs = cpuMsOf(child.pid!);
      resolve();
    });
    child.once("exit", (code) => reject(new TypeError(`the CLI exited with ${code} before listening`)));
  });
  const startMs = performance.now() - started;
  const stopping = performance.now();
  await stopped({ child, url: "" });
  return { startMs, cpuMs, stopMs: performance.now() - stopping };
}

/** `runs` alternating spawns with and without `--state FILE`: each side's starts and stops. */
async function startsWith(file: string, runs: number): Promise<{ withFile: StartStop[]; without: StartStop[] }> {
  const withFile: StartStop[] = [];
  const without: StartStop[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) withFile.push(await startStop(["--state", file]));
    without.push(await startStop([]));
    if (i % 2 === 1) withFile.push(await startStop(["--state", file]));
  }
  return { withFile, without };
}

/** The start's cost per stored log in microseconds (wall, and CPU), less the start without a state file. */
function perLog(runs: { withFile: StartStop[]; without: StartStop[] }, logs: number) {
  const of = (pick: (run: StartStop) => number) => ((median(runs.withFile.map(pick)) - median(runs.without.map(pick))) * 1000) / logs;
  return { wall: of((run) => run.startMs), cpu: of((run) => run.cpuMs), spread: runs.withFile.map((run) => run.startMs) };
}

/** Stops a server cleanly (SIGTERM: the state file is compacted and unlocked) and waits for its exit. */
async function stopped(running: Running): Promise<void> {
  const exited = new Promise((done) => running.child.once("exit", done));
  running.child.kill("SIGTERM");
  await exited;
}

const benchmark: Benchmark = {
  name: "state",
  async run() {
    const dir = mkdtempSync(join(tmpdir(), "prospectkit-bench-state-"));
    const file = join(dir, "state.jsonl");
    try {
      // (a) POST throughput, with and without a state file.
      const plain = await launch(args());
      const stateful = await launch(args(["--state", join(dir, "throughput.jsonl")]));
      let post: Awaited<ReturnType<typeof paired>>;
      try {
        post = await paired(`${plain.url}/v0/prospect_logs`, `${stateful.url}/v0/prospect_logs`, LOADS.postNew);
      } finally {
        await Promise.all([stopped(plain), stopped(stateful)]);
      }

      // (d) memory, written live without and with a state file (which (d) then restores from).
      const plainMemory = await memoryPerLog("plain", file);
      const liveMemory = await memoryPerLog("live", file);

      // (b) start with 100,000 and 1,000,000 stored logs (files written as a clean stop leaves them), and (c) the stop at 1,000,000.
      const smallFile = join(dir, "synthetic-100k.jsonl");
      const smallBytes = writeSyntheticState(smallFile, STORED, KEY);
      const small = perLog(await startsWith(smallFile, STARTS), STORED);
      const largeFile = join(dir, "synthetic-1m.jsonl");
      const largeBytes = writeSyntheticState(largeFile, STORED_LARGE, KEY);
      const largeRuns = await startsWith(largeFile, STARTS_LARGE);
      const large = perLog(largeRuns, STORED_LARGE);
      rmSync(largeFile, { force: true });
      const stopMs = median(largeRuns.withFile.map((run) => run.stopMs));
      const stopBaseline = median(largeRuns.without.map((run) => run.stopMs));

      // (d) restored from the file the live side wrote.
      const restoredMemory = await memoryPerLog("restored", file);

      const ms = (value: number) => `${value.toFixed(0)} ms`;
      const us = (value: number) => `${value.toFixed(1)} µs`;
      const bytes = (value: number) => `${value.toFixed(0)} B`;
      const mb = (value: number) => `${(value / 1024 / 1024).toFixed(0)} MB`;
      const perLogRow = (figure: string, value: number): BenchRow => ({
        ...atMost(figure, us(value), `${PER_LOG_US} µs`, value / PER_LOG_US, 1),
        target: `<= ${PER_LOG_US} µs`,
        pass: value <= PER_LOG_US,
      });
      const rows: BenchRow[] = [
        ...(await judged([
          withIqr(
            atLeast(
              `(a) POST /v0/prospect_logs, a new prospect each time, --state vs without`,
              rps(post.server),
              rps(post.bare),
              post.ratio.median,
              0.8,
            ),
            post.ratio,
          ),
        ])),
        perLogRow(
          `(b) start to banner per stored log, ${STORED.toLocaleString("en-US")} logs (a ${mb(smallBytes)} file; ${small.spread.map(ms).join(", ")}), less a start without --state`,
          small.wall,
        ),
        perLogRow(
          `(b) start to banner per stored log, ${STORED_LARGE.toLocaleString("en-US")} logs (a ${mb(largeBytes)} file; ${large.spread.map(ms).join(", ")}), less a start without --state`,
          large.wall,
        ),
        atMost(
          `(b) linear: CPU time to the banner per stored log at ${STORED_LARGE.toLocaleString("en-US")} vs at ${STORED.toLocaleString("en-US")} (user + system, /proc)`,
          us(large.cpu),
          us(small.cpu),
          large.cpu / small.cpu,
          1.25,
        ),
        perLogRow(
          `(c) stop per stored log, ${STORED_LARGE.toLocaleString("en-US")} logs: SIGTERM to exit, compacting the whole state (median ${ms(stopMs)}; without --state ${ms(stopBaseline)})`,
          ((stopMs - stopBaseline) * 1000) / STORED_LARGE,
        ),
        atMost(
          `(d) RSS per stored log, a state file written live, vs none (${STORED.toLocaleString("en-US")} logs; heap ${bytes(liveMemory.heap)} vs ${bytes(plainMemory.heap)})`,
          bytes(liveMemory.rss),
          bytes(plainMemory.rss),
          liveMemory.rss / plainMemory.rss,
          1.1,
        ),
        atMost(
          `(d) RSS per stored log, restored from the state file at start, vs none written live (heap ${bytes(restoredMemory.heap)} vs ${bytes(plainMemory.heap)})`,
          bytes(restoredMemory.rss),
          bytes(plainMemory.rss),
          restoredMemory.rss / plainMemory.rss,
          1.1,
        ),
        info(
          "load",
          `autocannon, ${CONNECTIONS} connections, ${PAIRS} interleaved pairs of ${PAIR_SECONDS} s (a); ${STORED.toLocaleString("en-US")} POSTs through api.fetch (d)`,
        ),
      ];
      return rows;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
