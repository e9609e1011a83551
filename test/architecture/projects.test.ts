/**
 * The `fast` vitest project runs from the sources, without a build (`npm run test:fast`): a test
 * that runs the built CLI or reads dist/ must be listed in another project, which `npm test` runs
 * after the build. A new test of that kind that nobody listed fails here, not as a stale build.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, matchesGlob } from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_OPTIONS, PROJECTS } from "../projects.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const tests = readdirSync(join(ROOT, "test"), { recursive: true, encoding: "utf8" })
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => `test/${file.split("\\").join("/")}`)
  .filter((file) => file !== "test/architecture/projects.test.ts");
/** What marks a test that needs the build: the built CLI's helpers, or a path into dist/. */
const NEEDS_BUILD = /\b(startCli|runCliToExit)\b|["'`][^"'`]*\bdist\//;
/** What marks a slow test that has no place in `npm run test:fast`: a browser, or the packed tarball. */
const SLOW = /from "playwright-core"|\binstallRuntime\(|\binject\("tarball"\)/;
/** The project a test file runs in. */
const projectOf = (file: string) =>
  (Object.entries(PROJECTS) as [keyof typeof PROJECTS, string[]][]).find(([, globs]) => globs.some((glob) => matchesGlob(file, glob)))?.[0] ?? "fast";

describe("the vitest projects", () => {
  const listed = Object.values(PROJECTS).flat();
  it("a test that needs the build is in a project other than fast", () => {
    const needsBuild = tests.filter((file) => NEEDS_BUILD.test(readFileSync(join(ROOT, file), "utf8")));
    expect(needsBuild.length).toBeGreaterThan(5);
    expect(needsBuild.filter((file) => !listed.some((glob) => matchesGlob(file, glob)))).toEqual([]);
  });

  it("a test that launches a browser or installs the tarball is not in the fast projects (npm run test:fast)", () => {
    const slow = tests.filter((file) => SLOW.test(readFileSync(join(ROOT, file), "utf8")));
    expect(slow.length).toBeGreaterThan(5);
    expect(slow.filter((file) => projectOf(file) === "fast" || projectOf(file) === "concurrent")).toEqual([]);
  });

  it("a test that reads the packed tarball (inject) is in a project whose global setup packs it", () => {
    const injects = tests.filter((file) => readFileSync(join(ROOT, file), "utf8").includes('inject("tarball")'));
    expect(injects.length).toBeGreaterThan(5);
    const packed = (file: string) => PROJECT_OPTIONS[projectOf(file)].globalSetup?.includes("test/support/tarball-setup.ts") === true;
    expect(injects.filter((file) => !packed(file))).toEqual([]);
  });

  it("no file sets its own concurrency (a reused worker keeps the limit of its first file): it belongs to a project with maxConcurrency", () => {
    const setsItsOwn = tests.filter((file) => /setConfig\(\s*\{[^}]*maxConcurrency/.test(readFileSync(join(ROOT, file), "utf8")));
    expect(setsItsOwn).toEqual([]);
  });

  it("every glob of a project names a test that exists", () => {
    expect(listed.filter((glob) => !tests.some((file) => matchesGlob(file, glob)))).toEqual([]);
  });
});
