/**
 * README: the first command is `npm ci && npm start`, and the standalone server's curl and Python
 * quick starts run as written against the built CLI (only the port differs: tests never use 4010).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, ROOT, startCli } from "./support.js";

const run = promisify(execFile);
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const DOCUMENTED_URL = "http://127.0.0.1:4010";

/** The first fenced block of `language` under `heading`. */
function block(heading: string, language: string): string {
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const code = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(section)?.[1];
  if (code === undefined) throw new TypeError(`README.md has no ${language} block under ${heading}`);
  return code;
}

describe("README", () => {
  it("shows `npm ci && npm start` as its first command", () => {
    expect(/```\w*\n([\s\S]*?)```/.exec(readme)?.[1]).toBe("npm ci && npm start\n");
  });

  describe("the standalone server quick start runs as written", () => {
    let cli: CliProcess;
    beforeAll(async () => {
      cli = await startCli(["--port", "0", "--quiet"]);
    });
    afterAll(() => cli.stop());

    it("curl: each command answers JSON (create, get, update, reset)", async () => {
      const script = block("## Standalone mock server", "sh").replaceAll(DOCUMENTED_URL, cli.url);
      const commands = script.replaceAll("\\\n", " ").trim().split("\n");
      expect(commands).toHaveLength(4);
      const answers = [];
      for (const command of commands) answers.push(JSON.parse((await run("sh", ["-c", command])).stdout));
      expect(answers).toEqual([
        expect.objectContaining({ createdProspect: true, type: "webhook" }),
        expect.objectContaining({ pageId: "page_demo", effectiveName: "Pricing" }),
        expect.objectContaining({ id: "webhooksubscription_demo", active: false }),
        { reset: true },
      ]);
    });

    it("Python: the standard-library client prints what the API answered", async () => {
      const script = block("## Standalone mock server", "python").replaceAll(DOCUMENTED_URL, cli.url);
      const { stdout } = await run("python3", ["-c", script]);
      expect(stdout.split("\n")).toEqual([expect.stringMatching(/^prospect_[a-z0-9]{26} True$/), "Pricing 1", "False", "1", ""]);
    });
  });
});
