/**
 * Issue 34.2: the README's quick starts run where users run them, as the README says to run them:
 * in a project of their own outside this repository (`npm init -y`, then `npm install` of the
 * packed package and msw, with the machine's npm), on the machine's Node (20 here and in CI) and
 * on the project's Node 24, and print what the README says. The SDK quick start is saved as
 * `.mjs` (any Node) and `.mts` (Node >= 22.18 strips its types) and run with the commands the
 * README gives; the mock quick starts as `.mjs`; the standalone quick start's curl and Python
 * against that project's own `npx prospectkit-mock`.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { type CliProcess, startCli } from "../server/support/cli-process.js";
import { machineEnv, machineNodeMajor } from "../support/machine-node.js";
import { type CodeBlock, codeBlocks, expectedPrints, ROOT } from "./markdown.js";

const run = promisify(execFile);
const DOCUMENTED_URL = "http://127.0.0.1:4010";
const API_KEY = "mock_api_key";

const readme = codeBlocks("README.md");
const under = (heading: string) => readme.filter((block) => block.heading === heading);
const [howToRun, sdkQuickStart] = under("SDK quick start") as [CodeBlock, CodeBlock];
const mockQuickStarts = under("Mock quick start");
const [curlQuickStart, pythonQuickStart] = under("Standalone quick start") as [CodeBlock, CodeBlock];

/** The README's commands: `node <file>   # <which Node>`. */
const commands = howToRun.code
  .split("\n")
  .map((line) => /^node (\S+)\s+# (.+)$/.exec(line))
  .filter((match) => match !== null)
  .map(([, file, node]) => ({ file: file!, node: node! }));

/** The environment whose `node` is the project's Node 24 (the one running this test). */
const projectNodeEnv = { ...machineEnv, PATH: `${dirname(process.execPath)}${delimiter}${machineEnv["PATH"]}` };

/** What a block printed, checked against its `prints:` comments. */
function expectPrinted(block: CodeBlock, stdout: string): void {
  const expected = expectedPrints(block);
  const printed = stdout.split("\n").slice(0, -1);
  expect(printed, `${block.file}:${block.line} prints what its "prints:" comments say`).toHaveLength(expected.length);
  for (const [index, line] of printed.entries()) expect(line).toMatch(expected[index]!);
}

let project: string;
let server: CliProcess;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "my-app-"));
  const npm = (args: string[]) => execFileSync("npm", args, { cwd: project, env: machineEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  npm(["init", "-y"]);
  npm(["install", "--no-audit", "--no-fund", inject("tarball")]);
  npm(["install", "--no-audit", "--no-fund", "--save-dev", "msw"]);
  server = await startCli(["--port", "0", "--quiet"], { command: ["npx", "--no-install", "prospectkit-mock"], cwd: project, env: machineEnv });
}, 300_000);
afterAll(async () => {
  await server?.stop();
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
});

beforeEach(async () => {
  const reset = await fetch(`${server.url}/__mock/reset`, { method: "POST", headers: { "x-api-key": API_KEY } });
  expect(reset.status).toBe(200);
});

describe("the README's quick starts, in a user's own project, from the packed package", () => {
  it("the project is a user's: outside the repository, made by npm init, with prospectkit from the tarball and msw from the registry", () => {
    expect(project.startsWith(ROOT)).toBe(false);
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies)).toEqual(["prospectkit"]);
    expect(Object.keys(manifest.devDependencies)).toEqual(["msw"]);
    expect(machineNodeMajor()).toBeGreaterThanOrEqual(20);
  });

  it("the README says how to run the SDK quick start on every supported Node: .mjs on any Node >= 20, .mts on Node >= 22.18", () => {
    expect(commands).toEqual([
      { file: "quick-start.mjs", node: "any Node >= 20" },
      { file: "quick-start.mts", node: "Node >= 22.18" },
    ]);
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).engines.node).toBe(">=20");
    expect(howToRun.code).toContain(`PROSPECTKIT_API_KEY=${API_KEY} PROSPECTKIT_BASE_URL=${DOCUMENTED_URL}`);
  });

  it.each([
    ["quick-start.mjs", "the machine's Node", machineEnv],
    ["quick-start.mts", "the project's Node 24", projectNodeEnv],
  ])("the SDK quick start saved as %s and run with `node` on %s prints what the README says", async (file, _, env) => {
    expect(commands.map((command) => command.file)).toContain(file);
    writeFileSync(join(project, file), sdkQuickStart.code);
    const { stdout } = await run("node", [file], {
      cwd: project,
      env: { ...env, PROSPECTKIT_API_KEY: API_KEY, PROSPECTKIT_BASE_URL: server.url },
    });
    expectPrinted(sdkQuickStart, stdout);
  });

  it.each(mockQuickStarts.map((block, index) => [index + 1, block] as const))(
    "mock quick start %i saved as .mjs runs on the machine's Node and prints what the README says",
    async (index, block) => {
      const file = `mock-quick-start-${index}.mjs`;
      writeFileSync(join(project, file), block.code);
      const { stdout } = await run("node", [file], { cwd: project, env: machineEnv });
      expectPrinted(block, stdout);
    },
  );

  it("the standalone quick start's curl commands, against the project's npx prospectkit-mock on the machine's Node: each a 2xx with JSON", async () => {
    const script = `set -e\ncurl() { command curl --fail-with-body "$@"; echo; }\n${curlQuickStart.code.replaceAll(DOCUMENTED_URL, server.url)}`;
    const { stdout } = await run("sh", ["-c", script], { env: machineEnv });
    const answers = stdout.split("\n").filter((line) => line !== "");
    expect(answers).toHaveLength(curlQuickStart.code.split("\n").filter((line) => line.startsWith("curl ")).length);
    for (const answer of answers) expect(() => JSON.parse(answer), answer).not.toThrow();
  });

  it("the standalone quick start's Python, against the same server, prints what the README says", async () => {
    const { stdout, stderr } = await run("python3", ["-c", pythonQuickStart.code.replaceAll(DOCUMENTED_URL, server.url)], { env: machineEnv });
    expect(stderr).toBe("");
    expectPrinted(pythonQuickStart, stdout);
  });
});
