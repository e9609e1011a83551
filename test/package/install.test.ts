/**
 * Issue 26.1: a library installs silently. npm 11 warns on every install of a package whose
 * lifecycle scripts `allowScripts` has not approved. The repository has no install lifecycle
 * script at all (so even a plain `npm pack` of the work tree installs silently), and the published
 * package.json (`npm run tarball`) carries no `scripts`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { npm } from "./pack.js";

describe("installing the packed tarball into a fresh project", () => {
  let tarball: string;
  let project: string;
  let output: string;
  beforeAll(() => {
    tarball = inject("tarball");
    project = mkdtempSync(join(tmpdir(), "prospectkit-install-"));
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, version: "1.0.0" }));
    // npm's own output as a user sees it: default log level (warnings shown), stdout and stderr together.
    output = execFileSync("sh", ["-c", 'npm install --no-audit --no-fund --loglevel=warn "$1" 2>&1', "sh", tarball], {
      cwd: project,
      encoding: "utf8",
    });
  }, 120_000);

  it("runs npm 11 or later (the first npm that warns about unapproved install scripts)", () => {
    expect(Number(npm(["--version"], project).split(".")[0])).toBeGreaterThanOrEqual(11);
  });

  it("npm prints no warning about prospectkit", () => {
    expect(output).toMatch(/added \d+ packages?/);
    expect(output.split("\n").filter((line) => /warn|error/i.test(line) && /prospectkit/.test(line))).toEqual([]);
  });

  it("the repository's package.json has no install lifecycle script, so a plain `npm pack` installs silently too", () => {
    const { scripts } = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"));
    expect(Object.keys(scripts).filter((name) => ["preinstall", "install", "postinstall", "prepare"].includes(name))).toEqual([]);
  });

  it("the installed package.json carries no script, and otherwise the repository's manifest", () => {
    const installed = JSON.parse(readFileSync(join(project, "node_modules/prospectkit/package.json"), "utf8"));
    const { scripts, ...rest } = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"));
    expect(Object.keys(scripts)).toContain("check-engines"); // the developers' scripts stay in the repository
    expect(installed.scripts).toBeUndefined();
    expect(installed).toEqual(rest);
  });
});
