/**
 * Issue 34.2: the README's SDK quick start on every Node of the matrix, run as the README says
 * (`node quick-start.mjs` on any Node >= 20, `node quick-start.mts` from Node 22.18), from the
 * packed tarball in a throw-away project, against the packed `prospectkit-mock` with its demo data.
 * Each prints what the README says; below a command's lower bound (Node 20 and `.mts`) the runtime
 * refuses it, so the bound the README gives is the real one.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { codeBlocks, expectedPrints } from "../docs/markdown.ts";
import { installIntoEmptyProject } from "../package/pack.ts";
import { type CliProcess, startCli } from "../server/support/cli-process.ts";
import { binaryOf } from "./install.ts";
import type { RuntimeId } from "./runtimes.ts";

const run = promisify(execFile);
const NODES: readonly RuntimeId[] = ["node20", "node22", "node24", "node26"];

const [howToRun, quickStart] = codeBlocks("README.md").filter((block) => block.heading === "SDK quick start");
/** The README's commands and the lowest Node each names: `node quick-start.mjs   # any Node >= 20`. */
const commands = howToRun!.code
  .split("\n")
  .map((line) => /^node (\S+)\s+#.*>= ([\d.]+)$/.exec(line))
  .filter((match) => match !== null)
  .map(([, file, lowest]) => ({ file: file!, lowest: lowest!.split(".").map(Number) }));

const atLeast = (version: string, lowest: number[]) => {
  const parts = version.replace(/^v/, "").split(".").map(Number);
  for (const [index, part] of lowest.entries()) if (parts[index] !== part) return (parts[index] ?? 0) > part;
  return true;
};

const skipped = inject("skipped");
const cases = NODES.filter((id) => !skipped.includes(id)).flatMap((runtime) =>
  commands.map((command) => ({ runtime, ...command, name: `${runtime}: node ${command.file}` })),
);

describe("the README's SDK quick start on every Node, as the README says to run it", () => {
  let project: string;
  let server: CliProcess;
  beforeAll(async () => {
    expect(commands.map(({ file }) => file)).toEqual(["quick-start.mjs", "quick-start.mts"]);
    project = installIntoEmptyProject(inject("tarball"));
    for (const { file } of commands) writeFileSync(join(project, file), quickStart!.code);
    server = await startCli(["--port", "0", "--quiet"], {
      command: [process.execPath, join(project, "node_modules/prospectkit/dist/mock/server/cli.js")],
      cwd: project,
    });
  });
  afterAll(() => server?.stop());
  beforeEach(async () => {
    expect((await fetch(`${server.url}/__mock/reset`, { method: "POST", headers: { "x-api-key": "mock_api_key" } })).status).toBe(200);
  });

  it.each(cases)("$name", async ({ runtime, file, lowest }) => {
    const { bin, version } = binaryOf(inject("runtimes"), runtime);
    const env = { ...process.env, PROSPECTKIT_API_KEY: "mock_api_key", PROSPECTKIT_BASE_URL: server.url };
    const ran = run(bin, [file], { cwd: project, env });
    if (!atLeast(version, lowest)) {
      // Below the README's bound: the runtime refuses the file, as the README implies.
      await expect(ran).rejects.toThrow(/ERR_UNKNOWN_FILE_EXTENSION|Unknown file extension/);
      return;
    }
    const { stdout } = await ran;
    const printed = stdout.split("\n").slice(0, -1);
    const expected = expectedPrints(quickStart!);
    expect(printed).toHaveLength(expected.length);
    for (const [index, line] of printed.entries()) expect(line).toMatch(expected[index]!);
  });
});
