/**
 * Issue 25's benchmark, on the BUILT CLI: what `--state FILE` costs. (a) POST throughput of a
 * server with `--state` against the same server without, paired rounds in the same run (target
 * >= 0.7); (b) the time from spawning `prospectkit-mock --state FILE` to its banner with 100,000
 * stored logs in the file (target <= 2 s; the start without a file is the baseline: Node's own
 * boot and the CLI's import); (c) resident memory per stored log, 100,000 logs, for a server with
 * `--state` written live and one restored from the file at start, against a server without
 * `--state` written live (target: unchanged, <= 1.1). RSS is read from /proc (Linux), after the
 * writes have settled for a second; no GC can be forced from outside, so garbage not yet collected
 * counts on every side alike.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { atLeast, atMost, type Benchmark, info, median } from "./report.ts";
import { autocannon, CLI, CONNECTIONS, KEY, LOADS, launch, loadOptions, paired, type Running, rps } from "./server.ts";
import { rssOf } from "./soak.ts";

/** Stored logs for the start-time and memory rows. */
const STORED = 100_000;
/** Start-time spawns per side (alternating). */
const STARTS = 5;

const args = (extra: string[] = []) => [CLI, "--port", "0", "--quiet", "--no-demo", "--no-webhooks", "--api-key", KEY, ...extra];

/** Sends `amount` POSTs creating a new prospect each. */
async function fill(url: string, amount: number): Promise<void> {
  const { duration: _, ...options } = loadOptions(`${url}/v0/prospect_logs`, LOADS.postNew, CONNECTIONS, 1);
  const result = await autocannon({ ...options, amount });
  if (result.non2xx > 0 || result.errors > 0) throw new TypeError(`fill: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
}

/** Milliseconds from spawning the CLI to its banner's first line. */
async function startTime(extra: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args(extra), { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("listening on")) resolve();
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

/** RSS per stored log of a server holding `STORED` logs, against its own empty figure. */
async function rssPerLog(empty: number, running: Running): Promise<number> {
  await sleep(1_000);
  return (rssOf(running.child.pid!) - empty) / STORED;
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

      // (c) memory, written live: without and with a state file.
      const live = await launch(args());
      const liveEmpty = (await sleep(1_000), rssOf(live.child.pid!));
      await fill(live.url, STORED);
      const livePerLog = await rssPerLog(liveEmpty, live);
      await stopped(live);
      const written = await launch(args(["--state", file]));
      const writtenEmpty = (await sleep(1_000), rssOf(written.child.pid!));
      await fill(written.url, STORED);
      const writtenPerLog = await rssPerLog(writtenEmpty, written);
      await stopped(written);
      const fileBytes = statSync(file).size;

      // (b) start time with the file, against a start without one; then (c) restored from the file.
      const withFile: number[] = [];
      const without: number[] = [];
      for (let i = 0; i < STARTS; i++) {
        if (i % 2 === 0) withFile.push(await startTime(["--state", file]));
        without.push(await startTime([]));
        if (i % 2 === 1) withFile.push(await startTime(["--state", file]));
      }
      const emptyStart = await launch(args());
      const restoredEmpty = (await sleep(1_000), rssOf(emptyStart.child.pid!));
      await stopped(emptyStart);
      const restored = await launch(args(["--state", file]));
      const restoredPerLog = await rssPerLog(restoredEmpty, restored);
      await stopped(restored);

      const ms = (value: number) => `${value.toFixed(0)} ms`;
      const bytes = (value: number) => `${value.toFixed(0)} B`;
      return [
        atLeast(`(a) POST /v0/prospect_logs, a new prospect each time, --state vs without (${post.spread})`, rps(post.server), rps(post.bare), post.ratio, 0.7),
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
        atMost(`(c) RSS per stored log, --state, written live, vs without --state (${STORED.toLocaleString("en-US")} logs)`, bytes(writtenPerLog), bytes(livePerLog), writtenPerLog / livePerLog, 1.1),
        atMost(`(c) RSS per stored log, --state, restored at start, vs without --state written live`, bytes(restoredPerLog), bytes(livePerLog), restoredPerLog / livePerLog, 1.1),
        info("load", `autocannon, ${CONNECTIONS} connections, pairs of 3 s (a); ${STORED.toLocaleString("en-US")} POSTs to fill (b, c)`),
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
