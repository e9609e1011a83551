/**
 * Issue 25's benchmark, on the BUILT package: what `--state FILE` costs. (a) POST throughput of
 * the CLI with `--state` against the same CLI without, paired rounds in the same run (target
 * >= 0.7); (b) the time from spawning `prospectkit-mock --state FILE` to its banner with 100,000
 * stored logs in the file (target <= 2 s; a start without `--state` is the baseline: Node's boot
 * and the CLI's import); (c) memory per stored log of 100,000, each side in a fresh process
 * started with `--expose-gc` and read after full GCs: a server with a state file written live and
 * one restored from the file at start, against a server without a state file (target: unchanged,
 * <= 1.1). Resident memory is the figure; the heap is given beside it.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { atLeast, atMost, type Benchmark, info, median } from "./report.ts";
import { CLI, CONNECTIONS, KEY, LOADS, launch, paired, type Running, rps } from "./server.ts";

const run = promisify(execFile);

/** Stored logs for the start-time and memory rows. */
const STORED = 100_000;
/** Start-time spawns per side (alternating). */
const STARTS = 5;

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

/** CPU milliseconds of each start to the banner, as {@link startTime} measured them. */
const cpuToBanner = new Map<string, number[]>();

/** Milliseconds from spawning the CLI to its banner's first line (the CPU time it took is kept in {@link cpuToBanner}). */
async function startTime(extra: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args(extra), { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (!out.includes("listening on")) return;
      const side = extra.join(" ");
      cpuToBanner.set(side, [...(cpuToBanner.get(side) ?? []), cpuMsOf(child.pid!)]);
      resolve();
    });
    child.once("exit", (code) => reject(new TypeError(`the CLI exited with ${code} before listening`)));
  });
  const ms = performance.now() - started;
  await stopped({ child, url: "" });
  return ms;
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

      // (c) memory, written live without and with a state file (which (b) then starts from).
      const plainMemory = await memoryPerLog("plain", file);
      const liveMemory = await memoryPerLog("live", file);
      const fileBytes = statSync(file).size;

      // (b) start time with the file, against a start without one; then (c) restored from the file.
      const withFile: number[] = [];
      const without: number[] = [];
      for (let i = 0; i < STARTS; i++) {
        if (i % 2 === 0) withFile.push(await startTime(["--state", file]));
        without.push(await startTime([]));
        if (i % 2 === 1) withFile.push(await startTime(["--state", file]));
      }
      const restoredMemory = await memoryPerLog("restored", file);

      const ms = (value: number) => `${value.toFixed(0)} ms`;
      const bytes = (value: number) => `${value.toFixed(0)} B`;
      return [
        atLeast(
          `(a) POST /v0/prospect_logs, a new prospect each time, --state vs without (${post.spread})`,
          rps(post.server),
          rps(post.bare),
          post.ratio,
          0.7,
        ),
        {
          ...atMost(
            `(b) start to banner with ${STORED.toLocaleString("en-US")} stored logs (a ${(fileBytes / 1024 / 1024).toFixed(1)} MB file; median of ${STARTS}, ${Math.min(...withFile).toFixed(0)}-${Math.max(...withFile).toFixed(0)} ms) vs a start without --state; target: <= 2000 ms`,
            ms(median(withFile)),
            ms(median(without)),
            median(withFile) / median(without),
            Number.POSITIVE_INFINITY,
          ),
          target: "<= 2000 ms",
          pass: median(withFile) <= 2000,
        },
        info(
          "(b) CPU time to the banner, user + system (less disturbed by other work than the wall time): with the file vs without",
          ms(median(cpuToBanner.get(`--state ${file}`) ?? [])),
          ms(median(cpuToBanner.get("") ?? [])),
        ),
        atMost(
          `(c) RSS per stored log, a state file written live, vs none (${STORED.toLocaleString("en-US")} logs; heap ${bytes(liveMemory.heap)} vs ${bytes(plainMemory.heap)})`,
          bytes(liveMemory.rss),
          bytes(plainMemory.rss),
          liveMemory.rss / plainMemory.rss,
          1.1,
        ),
        atMost(
          `(c) RSS per stored log, restored from the state file at start, vs none written live (heap ${bytes(restoredMemory.heap)} vs ${bytes(plainMemory.heap)})`,
          bytes(restoredMemory.rss),
          bytes(plainMemory.rss),
          restoredMemory.rss / plainMemory.rss,
          1.1,
        ),
        info("load", `autocannon, ${CONNECTIONS} connections, pairs of 3 s (a); ${STORED.toLocaleString("en-US")} POSTs through api.fetch (b, c)`),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
