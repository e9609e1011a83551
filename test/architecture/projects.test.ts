/**
 * The `fast` vitest project runs from the sources, without a build (`npm run test:fast`): a test
 * that runs the built CLI or reads dist/ must be listed in another project, which `npm test` runs
 * after the build. A new test of that kind that nobody listed fails here, not as a stale build.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, matchesGlob } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECTS } from "../projects.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const tests = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => `test/${file.split("\\").join("/")}`)
  .filter((file) => file !== "test/architecture/projects.test.ts");
/** What marks a test that needs the build: the built CLI's helpers, or a path into dist/. */
const NEEDS_BUILD = /\b(startCli|runCliToExit)\b|["'`][^"'`]*\bdist\//;

describe("the vitest projects", () => {
  const listed = Object.values(PROJECTS).flat();
  it("a test that needs the build is in a project other than fast", () => {
    const needsBuild = tests.filter((file) => NEEDS_BUILD.test(readFileSync(join(ROOT, file), "utf8")));
    expect(needsBuild.length).toBeGreaterThan(5);
    expect(needsBuild.filter((file) => !listed.some((glob) => matchesGlob(file, glob)))).toEqual([]);
  });

  it("no file sets its own concurrency (a reused worker keeps the limit of its first file): it belongs to a project with maxConcurrency", () => {
    const setsItsOwn = tests.filter((file) => /setConfig\(\s*\{[^}]*maxConcurrency/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(setsItsOwn).toEqual([]);
  });

  it("every glob of a project names a test that exists", () => {
    expect(listed.filter((glob) => !tests.some((file) => matchesGlob(file, glob)))).toEqual([]);
  });
});
