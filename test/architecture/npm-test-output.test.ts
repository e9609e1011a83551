/**
 * Issue 34.10: `npm test` (scripts/test.mjs) prints what a reader needs. On success the steps whose
 * output is a listing (tsup's file sizes, attw's table) print one line; when one fails, its whole
 * output is printed. Run with stand-ins for the tools on PATH, each printing a listing and passing
 * or failing as the case says.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = resolve(import.meta.dirname, "../../scripts/test.mjs");
const TOOLS = ["biome", "tsc", "tsup", "vitest", "publint", "attw", "size-limit", "typedoc"];

/** Runs scripts/test.mjs with stand-in tools: each prints 40 lines of listing, and `failing` exits 1. */
function npmTest(failing?: string): { status: number | null; stdout: string } {
  const bin = mkdtempSync(join(tmpdir(), "prospectkit-tools-"));
  for (const tool of TOOLS) {
    const file = join(bin, tool);
    const code = tool === failing ? 1 : 0;
    writeFileSync(
      file,
      `#!/bin/sh\ni=1; while [ $i -le 40 ]; do echo "${tool} listing line $i"; i=$((i+1)); done\necho "${tool} says: exit ${code}" >&2\nexit ${code}\n`,
    );
    chmodSync(file, 0o755);
  }
  const run = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8", env: { ...process.env, PATH: `${bin}${delimiter}${process.env["PATH"]}` } });
  return { status: run.status, stdout: run.stdout };
}

describe("npm test's output", () => {
  it("on success: tsup and attw print one line each (and their stderr), the other steps all they print", () => {
    const { status, stdout } = npmTest();
    expect(status).toBe(0);
    for (const quiet of ["tsup", "attw"]) {
      expect(stdout).toContain(`${quiet}: passed (its output is shown when it fails)\n${quiet} says: exit 0`);
      expect(stdout).not.toContain(`${quiet} listing line`);
    }
    for (const loud of ["biome", "tsc", "vitest", "publint", "size-limit", "typedoc"]) expect(stdout).toContain(`${loud} listing line 40`);
  });

  it.each(["tsup", "attw"])("when %s fails: its whole output, and npm test stops with its exit code", (tool) => {
    const { status, stdout } = npmTest(tool);
    expect(status).toBe(1);
    expect(stdout).toContain(`${tool} listing line 1\n`);
    expect(stdout).toContain(`${tool} listing line 40\n${tool} says: exit 1`);
    expect(stdout).not.toContain(`${tool}: passed`);
  });
});
