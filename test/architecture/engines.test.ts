/**
 * Every installed package fits the Node that runs it (scripts/check-engines.mjs, also
 * `npm run check-engines`): the toolchain on the project's Node, prospectkit's own dependencies on
 * the lowest Node prospectkit supports. npm's own check compares with the Node that runs npm.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

describe("engines", () => {
  it("every installed package supports the Node it runs on", () => {
    const out = execFileSync(process.execPath, [join(ROOT, "scripts", "check-engines.mjs")], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    expect(out).toMatch(/^check-engines: \d+ packages fit the Node they run on/);
  });
});
