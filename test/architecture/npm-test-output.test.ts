/**
 * Issue 34.10: `npm test` (scripts/test.mjs) prints what a reader needs. On success the steps whose
 * output is a listing (tsup's file sizes, attw's table) print one line; when one fails, its whole
 * output is printed. At the end, passed or failed, it prints each step's time and the five slowest
 * test files of the run's vitest report. Run with stand-ins for the tools on PATH, each printing a
 * listing and passing or failing as the case says, in a folder of its own (where the stand-in
 * vitest writes its report).
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = resolve(import.meta.dirname, "../../scripts/test.mjs");
const TOOLS = ["biome", "tsc", "tsup", "vitest", "publint", "attw", "size-limit"];

/** The report the stand-in vitest writes: seven files, of 1 to 7 seconds, in no order. */
const REPORT = {
  testResults: [3, 7, 1, 5, 2, 6, 4].map((seconds) => ({
    name: `FOLDER/test/file-${seconds}.test.ts`,
    startTime: 1_000,
    endTime: 1_000 + seconds * 1000,
  })),
};

/** Runs scripts/test.mjs with stand-in tools: each prints 40 lines of listing, and `failing` exits 1; vitest writes its report. */
function npmTest(failing?: string): { status: number | null; stdout: string } {
  const bin = mkdtempSync(join(tmpdir(), "prospectkit-tools-"));
  const folder = mkdtempSync(join(tmpdir(), "prospectkit-run-"));
  mkdirSync(join(folder, "test"));
  writeFileSync(join(folder, "report.json"), JSON.stringify(REPORT).replaceAll("FOLDER", folder));
  for (const tool of TOOLS) {
    const file = join(bin, tool);
    const code = tool === failing ? 1 : 0;
    const report = tool === "vitest" ? `cp "${join(folder, "report.json")}" test/.report.json\n` : "";
    writeFileSync(
      file,
      `#!/bin/sh\n${report}i=1; while [ $i -le 40 ]; do echo "${tool} listing line $i"; i=$((i+1)); done\necho "${tool} says: exit ${code}" >&2\nexit ${code}\n`,
    );
    chmodSync(file, 0o755);
  }
  const run = spawnSync(process.execPath, [SCRIPT], {
    cwd: folder,
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env["PATH"]}` },
  });
  return { status: run.status, stdout: run.stdout };
}

/** A line of the summary with its time replaced by `<time>`. */
const timeless = (line: string) => line.replace(/^ +\d+\.\d s {2}/, "<time>  ");

/** The lines of the time summary: each step's, then the slowest files'. */
const summaryOf = (stdout: string) => stdout.slice(stdout.lastIndexOf("\nTime by step:\n")).trim().split("\n");

describe("npm test's output", () => {
  it("on success: tsup and attw print one line each (and their stderr), the other steps all they print", () => {
    const { status, stdout } = npmTest();
    expect(status).toBe(0);
    for (const quiet of ["tsup", "attw"]) {
      expect(stdout).toContain(`${quiet}: passed (its output is shown when it fails)\n${quiet} says: exit 0`);
      expect(stdout).not.toContain(`${quiet} listing line`);
    }
    for (const loud of ["biome", "tsc", "vitest", "publint", "size-limit"]) expect(stdout).toContain(`${loud} listing line 40`);
  });

  it("at the end: each step's time, the total, and the five slowest test files of vitest's report, slowest first", () => {
    const { status, stdout } = npmTest();
    expect(status).toBe(0);
    const lines = summaryOf(stdout);
    expect(lines.slice(0, TOOLS.length + 2).map(timeless)).toEqual(["Time by step:", ...TOOLS.map((tool) => `<time>  ${tool}`), "<time>  in all"]);
    expect(lines.slice(TOOLS.length + 2)).toEqual([
      "",
      "The five slowest test files:",
      "   7.0 s  test/file-7.test.ts",
      "   6.0 s  test/file-6.test.ts",
      "   5.0 s  test/file-5.test.ts",
      "   4.0 s  test/file-4.test.ts",
      "   3.0 s  test/file-3.test.ts",
    ]);
  });

  it("a step that fails: the times of the steps that ran, and no slowest files when vitest never ran", () => {
    const { status, stdout } = npmTest("tsc");
    expect(status).toBe(1);
    expect(summaryOf(stdout).map(timeless)).toEqual(["Time by step:", "<time>  biome", "<time>  tsc", "<time>  in all"]);
  });

  it.each(["tsup", "attw"])("when %s fails: its whole output, and npm test stops with its exit code", (tool) => {
    const { status, stdout } = npmTest(tool);
    expect(status).toBe(1);
    expect(stdout).toContain(`${tool} listing line 1\n`);
    expect(stdout).toContain(`${tool} listing line 40\n${tool} says: exit 1`);
    expect(stdout).not.toContain(`${tool}: passed`);
  });
});
