/**
 * What an integrator does: install the packed tarball into an empty folder and run
 * `npx prospectkit-mock` with the machine's own Node (20 here and in CI, never the project's 24).
 * It starts, prints its banner, and every printed curl works as printed.
 */
import { execFile, execFileSync } from "node:child_process";
import { delimiter } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installIntoEmptyProject, packTarball } from "../package/pack.js";
import { bannerCurls, type CliProcess, startCli } from "./support.js";

const run = promisify(execFile);

/** PATH without the project's node_modules/.bin, so `npx` and `node` are the machine's own. */
const machinePath = (process.env["PATH"] ?? "")
  .split(delimiter)
  .filter((dir) => !dir.includes("node_modules"))
  .join(delimiter);
const machineEnv = { ...process.env, PATH: machinePath };

describe("npx prospectkit-mock from the packed tarball, on the machine's Node", () => {
  let dir: string;
  let cli: CliProcess;

  beforeAll(async () => {
    dir = installIntoEmptyProject(packTarball());
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
    expect(commands).toHaveLength(5);
    for (const command of commands) {
      const { stdout } = await run("sh", ["-c", `${command} -w '\\n%{http_code}'`]);
      const status = Number(stdout.slice(stdout.lastIndexOf("\n") + 1));
      expect({ command, status: Math.floor(status / 100) }).toEqual({ command, status: 2 });
    }
  });
});
