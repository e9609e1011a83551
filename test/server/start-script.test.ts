/**
 * `npm start` (scripts/start.mjs): builds only when dist/ is missing or older than the sources,
 * then runs the CLI in its own process with the arguments given. Checked in a scratch copy of the
 * layout whose "build" is a stand-in, so the real dist/ is never rebuilt under a running suite.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./support/cli-process.js";

const run = promisify(execFile);
let dir: string;

const FAKE_BUILD = `
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
if (process.env.FAIL_BUILD) process.exit(3);
appendFileSync("builds.log", "built\\n");
mkdirSync("dist/mock/server", { recursive: true });
writeFileSync("dist/mock/server/cli.js", 'console.log("cli ran " + JSON.stringify(process.argv.slice(2)));\\n');
`;

async function start(env: Record<string, string> = {}) {
  return run(process.execPath, [join(dir, "scripts/start.mjs"), "--port", "0"], { cwd: dir, env: { ...process.env, ...env } }).catch(
    (error: { code: number; stdout: string; stderr: string }) => ({ ...error, failed: error.code }),
  );
}

const builds = () => readFileSync(join(dir, "builds.log"), "utf8").split("\n").filter(Boolean).length;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pk-start-"));
  mkdirSync(join(dir, "scripts"));
  mkdirSync(join(dir, "src"));
  copyFileSync(join(ROOT, "scripts/start.mjs"), join(dir, "scripts/start.mjs"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module", scripts: { build: "node build.mjs" } }));
  writeFileSync(join(dir, "build.mjs"), FAKE_BUILD);
  writeFileSync(join(dir, "src/index.ts"), "export {};\n");
  const past = new Date(Date.now() - 60_000);
  for (const file of ["package.json", "build.mjs", "src/index.ts", "src"]) utimesSync(join(dir, file), past, past);
});

describe("npm start", () => {
  it("builds when dist/ is missing, then runs the CLI with the given arguments", async () => {
    const { stdout, stderr } = await start();
    expect(stdout).toBe('cli ran ["--port","0"]\n');
    expect(stderr).toContain("building dist/ first");
    expect(builds()).toBe(1);
  });

  it("does not build again while dist/ is newer than every source", async () => {
    expect((await start()).stdout).toBe('cli ran ["--port","0"]\n');
    expect(builds()).toBe(1);
  });

  it("builds again once a source is newer than dist/", async () => {
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(dir, "src/index.ts"), future, future);
    expect((await start()).stdout).toBe('cli ran ["--port","0"]\n');
    expect(builds()).toBe(2);
  });

  it("a failing build stops with exit code 1 and says how to see why", async () => {
    const future = new Date(Date.now() + 120_000);
    utimesSync(join(dir, "src/index.ts"), future, future);
    const result = await start({ FAIL_BUILD: "1" });
    expect(result).toMatchObject({ failed: 1 });
    expect(result.stderr).toContain("the build failed; run `npm run build` to see why");
  });
});
