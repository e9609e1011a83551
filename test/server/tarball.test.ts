/**
 * What an integrator does: install the packed tarball into an empty folder and run
 * `npx prospectkit-mock` with the machine's own Node (20 here and in CI, never the project's 24).
 * It starts, prints its banner, and every printed curl works as printed; terminating npx (as a
 * test runner's teardown or Python's `Popen.terminate()` does) leaves no server behind.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import { installIntoEmptyProject } from "../package/pack.js";
import { machineEnv } from "../support/machine-node.js";
import { bannerCurls, type CliProcess, startCli } from "./support/cli-process.js";

const run = promisify(execFile);

/** One install of the tarball for both suites: neither writes to it. */
let dir: string;
beforeAll(() => {
  dir = installIntoEmptyProject(inject("tarball"));
}, 180_000);

describe("npx prospectkit-mock from the packed tarball, on the machine's Node", () => {
  let cli: CliProcess;

  beforeAll(async () => {
    cli = await startCli(["--port", "0"], { command: ["npx", "--no-install", "prospectkit-mock"], cwd: dir, env: machineEnv });
  }, 180_000);
  afterAll(() => cli?.stop());

  it("runs on the machine's Node (>= 20), not the project's", () => {
    const version = execFileSync("node", ["--version"], { env: machineEnv, encoding: "utf8" }).trim();
    expect(Number(/^v(\d+)\./.exec(version)?.[1])).toBeGreaterThanOrEqual(20);
    expect(version).not.toBe(process.version);
  });

  it("prints its banner, and every printed curl works as printed", async () => {
    expect(cli.stdout()).toMatch(/^prospectkit-mock \S+ listening on http:\/\/127\.0\.0\.1:\d+\n/);
    const commands = bannerCurls(cli.stdout());
    // One per operation, then a publish, the stored entries and the inbox.
    expect(commands).toHaveLength(OPERATION_TABLE.length + 3);
    for (const command of commands) {
      const { stdout } = await run("sh", ["-c", `${command} -w '\\n%{http_code}'`]);
      const status = Number(stdout.slice(stdout.lastIndexOf("\n") + 1));
      expect({ command, status: Math.floor(status / 100) }).toEqual({ command, status: 2 });
    }
  });
});

/** Every process below `pid` (children, grandchildren, ...), read from `ps`. */
function descendants(pid: number): number[] {
  const rows = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let parents = [pid]; parents.length > 0; ) {
    parents = rows.filter(([, ppid]) => parents.includes(ppid)).map(([child]) => child);
    found.push(...parents);
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until `check` holds, or `ms` have passed; returns whether it held. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((done) => setTimeout(done, 50))) {
    if (await check()) return true;
  }
  return check();
}

const refuses = (url: string) =>
  fetch(`${url}/openapi.json`).then(
    () => false,
    () => true,
  );

describe("the server never outlives npx", () => {
  const started: CliProcess[] = [];
  const processes: number[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((cli) => cli.stop("SIGKILL")));
    // an orphan (the failure this suite is about) is in no group the test still signals
    for (const pid of processes.splice(0)) if (alive(pid)) process.kill(pid, "SIGKILL");
  });

  const npx = async () => {
    const cli = await startCli(["--port", "0", "--quiet"], { command: ["npx", "--no-install", "prospectkit-mock"], cwd: dir, env: machineEnv });
    started.push(cli);
    const below = descendants(cli.child.pid!);
    processes.push(...below);
    return { cli, below };
  };

  it("terminating npx alone (SIGTERM to its process, not its group) stops the server and every process under npx", async () => {
    const { cli, below } = await npx();
    expect(below.length).toBeGreaterThan(0);
    const exited = new Promise((done) => cli.child.once("exit", (code, signal) => done({ code, signal })));
    cli.child.kill("SIGTERM");
    expect(await exited).toEqual({ code: null, signal: "SIGTERM" });
    expect(await eventually(() => refuses(cli.url))).toBe(true);
    expect(await eventually(() => below.every((pid) => !alive(pid)))).toBe(true);
    await cli.waitFor("prospectkit-mock stopped: the process that started it exited\n");
  });

  // Ctrl+C signals the whole foreground group. The server stops cleanly and exits 0; npx then
  // reports what its `sh -c` reports: bash (macOS) passes the 0 on, dash (Debian, Ubuntu) kills
  // itself with SIGINT once its child is done, and npm re-raises it (130 in a shell).
  it("Ctrl+C (SIGINT to the group) stops the server cleanly; npx ends with 0 or with SIGINT, as its shell decides", async () => {
    const { cli, below } = await npx();
    const exited = new Promise<{ code: number | null; signal: string | null }>((done) =>
      cli.child.once("exit", (code, signal) => done({ code, signal })),
    );
    process.kill(-cli.child.pid!, "SIGINT");
    const exit = await exited;
    expect([
      { code: 0, signal: null },
      { code: null, signal: "SIGINT" },
    ]).toContainEqual(exit);
    await cli.waitFor("prospectkit-mock stopped\n");
    expect(cli.stderr()).not.toMatch(/error/i);
    expect(await refuses(cli.url)).toBe(true);
    expect(await eventually(() => below.every((pid) => !alive(pid)))).toBe(true);
  });
});
