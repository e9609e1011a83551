/**
 * The state file where operators meet its edges, with the built CLI: a container restart (the
 * server is PID 1 in a fresh PID namespace, its lock left by the PID 1 before it, killed with
 * `kill -9`), and a real full disk (a small tmpfs). Both need root, which CI has: without it these
 * tests fail (they are never skipped).
 */
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { CLI, type CliProcess, startCli } from "./support/cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-container-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "mock_api_key";

const running = new Set<CliProcess>();
afterEach(async () => {
  for (const cli of running) await cli.stop("SIGKILL");
  running.clear();
});

async function start(args: string[], command?: string[]): Promise<CliProcess> {
  const cli = await startCli(["--port", "0", "--quiet", "--no-webhooks", ...args], command === undefined ? {} : { command });
  running.add(cli);
  return cli;
}

async function stop(cli: CliProcess, signal: NodeJS.Signals): Promise<number | null> {
  running.delete(cli);
  return cli.stop(signal);
}

const post = (cli: CliProcess, body: Record<string, unknown>) =>
  fetch(`${cli.url}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify({ payload: {}, ...body }),
  });

async function sources(cli: CliProcess): Promise<string[]> {
  const response = await fetch(`${cli.url}/__mock/prospect_logs`, { headers: { "x-api-key": KEY } });
  return ((await response.json()) as { data: { source: string }[] }).data.map((log) => log.source);
}

describe("a container restart: the server is PID 1 again, and its lock names PID 1", () => {
  /** The CLI as PID 1 of a fresh PID namespace (as in a container); killing `unshare` kills it. */
  const inNamespace = ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child", process.execPath, CLI];

  it("after kill -9, the restarted server takes its own lock over and has every acknowledged write", async () => {
    const path = join(dir, "container.jsonl");
    const first = await start(["--state", path], inNamespace);
    expect(readFileSync(`${path}.lock`, "utf8")).toMatch(/^(1\n|\{"pid":1,)/);
    expect((await post(first, { source: "before-the-crash" })).status).toBe(201);
    await stop(first, "SIGKILL");
    expect(existsSync(`${path}.lock`)).toBe(true); // left behind, naming PID 1

    const second = await start(["--state", path], inNamespace);
    expect(second.stderr()).toMatch(/its lock named this very process .*: taken over/);
    expect(await sources(second)).toEqual(["before-the-crash"]);
    expect(await stop(second, "SIGTERM")).toBe(0);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});

describe("a real full disk (a 4 MiB tmpfs)", () => {
  const mount = join(dir, "tmpfs");
  /** Fills the tmpfs with a file until the disk refuses more. */
  function fill(file: string): void {
    const fd = openSync(file, "w");
    const block = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, block);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
    } finally {
      closeSync(fd);
    }
  }

  it("a write it cannot keep is refused with 503 and undone; reads go on; it resumes by itself; stops leave no .tmp", {
    timeout: 60_000,
  }, async () => {
    mkdirSync(mount, { recursive: true });
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount], { stdio: "pipe" });
    } catch (error) {
      throw new TypeError(`this test mounts a tmpfs and needs root (CI runs as root): ${(error as Error).message.split("\n")[0]}`);
    }
    try {
      const path = join(mount, "state.jsonl");
      const filler = join(mount, "filler");
      const big = "b".repeat(64 * 1024); // more than the last page of the file can hold
      const cli = await start(["--state", path]);
      expect((await post(cli, { source: "kept-1" })).status).toBe(201);

      fill(filler);
      const refused = await post(cli, { source: "refused", payload: { big }, idempotencyKey: "full-disk" });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(((await refused.json()) as { code: string }).code).toBe("state_not_persisted");
      expect(await sources(cli)).toEqual(["kept-1"]); // undone; reads go on
      expect((await post(cli, { source: "also-refused" })).status).toBe(503);

      unlinkSync(filler);
      expect((await post(cli, { source: "refused", payload: { big }, idempotencyKey: "full-disk" })).status).toBe(201);
      expect(await sources(cli)).toEqual(["kept-1", "refused"]);
      const stderr = cli.stderr();
      expect(stderr.match(/cannot write it \(ENOSPC/g)).toHaveLength(1);
      expect(stderr.match(/: written again: /g)).toHaveLength(1);
      expect(stderr).not.toContain(KEY);

      // A stop on a full disk cannot compact: the file stays as it was, no temporary file.
      fill(filler);
      expect(await stop(cli, "SIGTERM")).toBe(0);
      expect(readdirSync(mount).filter((name) => name.endsWith(".tmp"))).toEqual([]);
      unlinkSync(filler);
      const restarted = await start(["--state", path]);
      expect(await sources(restarted)).toEqual(["kept-1", "refused"]);
      expect(await stop(restarted, "SIGTERM")).toBe(0);
    } finally {
      for (const cli of running) await stop(cli, "SIGKILL"); // nothing may hold the mount
      execFileSync("umount", [mount]);
    }
  });
});
