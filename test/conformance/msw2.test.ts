/**
 * The conformance suite through msw 2's `setupServer`. The handlers import `msw` by name, so an
 * npm alias cannot switch them: the suite runs in a throw-away project that installed the packed
 * tarball and msw 2, under the repository's vitest, and must run the same cases as the in-tree
 * msw 3 run (`msw.test.ts`), which is run again here to count them.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MSW_PINS } from "../runtimes/runtimes.ts";
import { MSW2_CHECK, MSW2_TARGET } from "./msw2/names.js";
import { createMsw2Project, REPOSITORY_ROOT, runVitest, SUITE_BUNDLE, type VitestReport } from "./msw2/project.js";

/** The cases of a report below the target's own describe: "describe > … > title" and status. */
function cases(report: VitestReport, target: string): { readonly name: string; readonly status: string }[] {
  const all = report.testResults.flatMap((file) => file.assertionResults);
  const own = all.filter((test) => test.ancestorTitles[0] === `conformance through ${target}`);
  return own.map((test) => ({ name: [...test.ancestorTitles.slice(1), test.title].join(" > "), status: test.status }));
}

describe("the conformance suite through msw 2's setupServer, in a throw-away install", () => {
  let project: string;
  let msw2: VitestReport;
  let msw3: VitestReport;
  const seconds: Record<string, string> = {};
  const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await step();
    seconds[name] = ((performance.now() - started) / 1000).toFixed(1);
    return result;
  };
  beforeAll(async () => {
    project = await timed("install", () => createMsw2Project(inject("tarball")));
    msw2 = await timed("msw 2 run", () => runVitest(project, [SUITE_BUNDLE]));
    msw3 = await timed("msw 3 run", () => runVitest(REPOSITORY_ROOT, ["test/conformance/msw.test.ts"]));
  }, 300_000);
  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it("installs the pinned newest msw 2 as the project's only msw", () => {
    const manifest = JSON.parse(readFileSync(join(project, "node_modules/msw/package.json"), "utf8")) as { version: string };
    expect(`msw@${manifest.version}`).toBe(MSW_PINS[2]);
    expect(manifest.version).toMatch(/^2\./);
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
    const msws = Object.keys(lock.packages).filter((path) => path === "node_modules/msw" || path.endsWith("/node_modules/msw"));
    expect(msws).toEqual(["node_modules/msw"]);
  });

  it("loads prospectkit/mock through require (CommonJS) too, with msw 2's handlers", () => {
    const script = `const { handlers } = require("prospectkit/mock").createMockApi(); const msw = require("msw");
      console.log(JSON.stringify([require("msw/package.json").version, handlers.length > 0 && handlers.every((h) => h instanceof msw.HttpHandler)]));`;
    const [version, fromThatMsw] = JSON.parse(execFileSync(process.execPath, ["-e", script], { cwd: project, encoding: "utf8" })) as [
      string,
      boolean,
    ];
    expect({ version: `msw@${version}`, fromThatMsw }).toEqual({ version: MSW_PINS[2], fromThatMsw: true });
  });

  it("proves, inside the run, that prospectkit/mock's handlers and msw/node load that msw 2", () => {
    const checks = msw2.testResults.flatMap((file) => file.assertionResults).filter((test) => test.title === MSW2_CHECK);
    expect(checks.map((test) => test.status)).toEqual(["passed"]);
  });

  it("passes every case under msw 2, none skipped", () => {
    expect(msw2.numFailedTests + msw2.numPendingTests + msw2.numTodoTests).toBe(0);
    expect(msw2.numPassedTests).toBe(msw2.numTotalTests);
    expect(cases(msw2, MSW2_TARGET).filter((test) => test.status !== "passed")).toEqual([]);
  });

  it("runs exactly the cases of the in-tree msw 3 run, by name and number", () => {
    const under2 = cases(msw2, MSW2_TARGET);
    const under3 = cases(msw3, "MSW setupServer (msw 3)");
    expect(under3.length).toBeGreaterThan(0);
    expect(under2.length).toBe(under3.length);
    expect(under2.map((test) => test.name).sort()).toEqual(under3.map((test) => test.name).sort());
    const steps = Object.entries(seconds).map(([name, time]) => `${name} ${time} s`);
    console.info(`conformance cases: ${under2.length} under ${MSW_PINS[2]}, ${under3.length} under msw 3 in-tree (${steps.join(", ")})`);
  });
});
