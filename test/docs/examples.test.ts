/**
 * Every example in README.md and docs/*.md runs as written: ONE test for all of them, so an
 * example that stops working fails `npm test`, and a new example is run without anyone writing a
 * test for it.
 *
 * - ```ts blocks: type-checked together by typecheck.test.ts, and each imported as a module here
 *   (imports of `prospectkit*` pointed at the sources), with PROSPECTKIT_API_KEY and PROSPECTKIT_BASE_URL pointing at the
 *   standalone mock server (the built CLI, the demo data, reset before each block): what a reader
 *   gets after `npm start`. `// prints: text` comments are what the block must print, in order.
 * - ```python blocks: run by python3 against the same server (only the documented port differs);
 *   `# prints: text` comments as above; nothing may go to stderr.
 * - ```sh blocks that call curl: run by sh -e against the same server; every curl must get a 2xx
 *   answer (`--fail-with-body`) whose body is JSON.
 * - ```ts vitest blocks are test files: run by Vitest in a child process (test/docs/.run/, git-ignored).
 * - ```ts app: <path> blocks are the files of the browser example app: test/browser/app-recipe.test.ts
 *   writes them into a Vite project and runs them in Chromium (they need a browser and a bundler).
 * - `no-run: reason` in the info string marks a block that is deliberately not executed; TypeScript
 *   ones are still type-checked unless it says `no-run no-check: reason`. Other blocks (text, json, shell commands without curl) are shown
 *   output or commands that other tests run.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { format, promisify } from "node:util";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type CliProcess, startCli } from "../server/support/cli-process.js";
import { allCodeBlocks, type CodeBlock, expectedPrints, label, ROOT, withSources } from "./markdown.js";

const run = promisify(execFile);
const DOCUMENTED_URL = "http://127.0.0.1:4010";
const API_KEY = "mock_api_key";
/** A webhook signing secret for the webhook examples (`whsec_` and base64). */
const WEBHOOK_SECRET = `whsec_${Buffer.from("prospectkit docs examples secret").toString("base64")}`;

const blocks = allCodeBlocks();
const typescript = blocks.filter((block) => ["ts", "typescript"].includes(block.language));
const vitestFiles = typescript.filter((block) => block.vitest && block.noRun === undefined);
const runnable = (language: string) => blocks.filter((block) => block.language === language && block.noRun === undefined);
/** A shell block is run when every command in it is a curl call (or sets a variable for one): never npm, npx or anything else. */
const isCurlScript = (code: string) => {
  const commands = code
    .replaceAll("\\\n", " ")
    .split(/\n|;/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  const single = (command: string) => !/&&|\|\||\$\(|`| \| /.test(command);
  const curlOrVariable = (command: string) => /^curl\s/.test(command) || /^[A-Za-z_]\w*=(?:'[^']*'|"[^"]*"|\S*)$/.test(command);
  return commands.length > 0 && commands.every((command) => single(command) && curlOrVariable(command));
};
const curlBlocks = runnable("sh").filter((block) => isCurlScript(block.code));

function checkPrints(block: CodeBlock, printed: string[]): void {
  const expected = expectedPrints(block);
  if (expected.length === 0) return;
  expect(printed, `${label(block)} prints what its "prints:" comments say`).toHaveLength(expected.length);
  printed.forEach((line, index) => {
    expect(line).toMatch(expected[index]!);
  });
}

let server: CliProcess;
const scratch = mkdtempSync(join(tmpdir(), "prospectkit-docs-"));

beforeAll(async () => {
  server = await startCli(["--port", "0", "--quiet"]);
});
afterAll(() => server.stop());

beforeEach(async () => {
  const reset = await fetch(`${server.url}/__mock/reset`, { method: "POST", headers: { "x-api-key": API_KEY } });
  expect(reset.status).toBe(200);
  vi.stubEnv("PROSPECTKIT_API_KEY", API_KEY);
  vi.stubEnv("PROSPECTKIT_BASE_URL", server.url);
  vi.stubEnv("PROSPECTKIT_WEBHOOK_SECRET", WEBHOOK_SECRET);
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("README.md and docs/*.md: every example runs as written", () => {
  it("finds the examples (the extraction itself works)", () => {
    expect(typescript.length).toBeGreaterThanOrEqual(10);
    expect(runnable("python").length).toBeGreaterThanOrEqual(2);
    expect(curlBlocks.length).toBeGreaterThanOrEqual(3);
    expect(vitestFiles.length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((block) => block.noRun !== undefined).length, "no-run blocks stay rare").toBeLessThanOrEqual(3);
  });

  it.each(
    runnable("ts")
      .concat(runnable("typescript"))
      .filter((block) => !block.vitest && block.app === undefined)
      .map((block) => [label(block), block] as const),
  )("ts %s", async (_, block) => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const file = join(scratch, `${block.file.replace(/\W/g, "_")}_${block.line}.ts`);
    writeFileSync(file, withSources(block.code.replaceAll(DOCUMENTED_URL, server.url)));
    await import(file);
    checkPrints(
      block,
      log.mock.calls.map((args) => format(...args)),
    );
  });

  it.each(vitestFiles.map((block) => [label(block), block] as const))(
    "vitest %s",
    async (_, block) => {
      const dir = join(ROOT, "test/docs/.run");
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${block.file.replace(/\W/g, "_")}_${block.line}.example.ts`);
      writeFileSync(file, withSources(block.code));
      const args = [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", join(ROOT, "test/docs/examples.vitest.config.ts"), file];
      const { stdout: output } = await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, CI: "true", NO_COLOR: "1" } }).catch(
        (error: { stdout?: string; stderr?: string }) => {
          throw new TypeError(`${label(block)} failed under Vitest:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
        },
      );
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal colour codes (ESC [ ... m) of Vitest's output
      const stdout = output.replace(/\x1b\[[0-9;]*m/g, "");
      expect(stdout).toMatch(/Tests\s+\d+ passed/);
      expect(stdout).not.toMatch(/failed|skipped/);
    },
    60_000,
  );

  it.each(runnable("python").map((block) => [label(block), block] as const))("python %s", async (_, block) => {
    const { stdout, stderr } = await run("python3", ["-c", block.code.replaceAll(DOCUMENTED_URL, server.url)]);
    expect(stderr).toBe("");
    checkPrints(block, stdout.split("\n").slice(0, -1));
  });

  it.each(curlBlocks.map((block) => [label(block), block] as const))("curl %s", async (_, block) => {
    // Each curl fails on a 4xx/5xx and ends its body with a newline, so every answer is one line.
    const script = `set -e\ncurl() { command curl --fail-with-body "$@"; echo; }\n${block.code.replaceAll(DOCUMENTED_URL, server.url)}`;
    const { stdout } = await run("sh", ["-c", script]);
    const answers = stdout.split("\n").filter((line) => line !== "");
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(() => JSON.parse(answer), answer).not.toThrow();
  });
});
