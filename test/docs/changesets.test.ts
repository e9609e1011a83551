/**
 * Releasing works: `.changeset/config.json` is the hand-written single-package config (its own
 * changelog writer off), every pending changeset bumps `prospectkit` and says something, and
 * `npm run release:version` (scripts/release-version.mjs), run on a copy of package.json,
 * CHANGELOG.md and .changeset/ (never in the repository, where it would consume them) with a
 * changeset of the test's own for each area and one that fits none added to whatever is pending
 * (right after a release nothing is), bumps the version and writes a CHANGELOG.md section on top
 * of the earlier ones that groups every changeset's text by area, in the script's order.
 */
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain-JavaScript script of the repository, without types
import { AREAS, areaOf } from "../../scripts/release-version.mjs";
import { ROOT } from "./markdown.js";

const run = promisify(execFile);
const pending = readdirSync(join(ROOT, ".changeset")).filter((name) => name.endsWith(".md") && name !== "README.md");

/** The test's own changesets: one named for each area's prefix and one that fits none, each a patch (a release with nothing pending still has these). */
const OWN: Readonly<Record<string, string>> = {
  "sdk-release-test.md": "The release test's SDK change: a sentence long enough to say what changed.",
  "mock-release-test.md": "The release test's mock change: a sentence long enough to say what changed.",
  "server-release-test.md": "The release test's server change: a sentence long enough to say what changed.",
  "console-release-test.md": "The release test's console change: a sentence long enough to say what changed.",
  "verify-release-test.md": "The release test's contract check change: a sentence long enough to say what changed.",
  "package-release-test.md": "The release test's package change: a sentence long enough to say what changed.",
  "docs-release-test.md": "The release test's docs change: a sentence long enough to say what changed.",
  "zz-release-test-unsorted.md":
    "The release test's change named after no area: it lands under Other changes.\n\nA second paragraph, indented under it.",
};
const ownSource = (name: string) => `---\n"prospectkit": patch\n---\n\n${OWN[name]}\n`;

/** The text of a changeset after its front matter, and its bumps. */
function parse(name: string): { bumps: string; text: string } {
  const source = OWN[name] === undefined ? readFileSync(join(ROOT, ".changeset", name), "utf8") : ownSource(name);
  const [, bumps = "", text = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source) ?? [];
  return { bumps: bumps.trim(), text: text.trim() };
}

describe("changesets", () => {
  it("config: one public package released from main", () => {
    const config = JSON.parse(readFileSync(join(ROOT, ".changeset/config.json"), "utf8"));
    expect(config).toMatchObject({ baseBranch: "main", access: "public", fixed: [], linked: [], commit: false, changelog: false });
  });

  // it.each of an empty list fails: right after a release nothing is pending, and the test's own are checked too.
  it.each([...pending, ...Object.keys(OWN)])("%s bumps prospectkit and says what changed", (name) => {
    const { bumps, text } = parse(name);
    expect(bumps).toMatch(/^"prospectkit": (patch|minor|major)$/);
    expect(text.length).toBeGreaterThan(40);
  });

  it("npm run release:version on a copy bumps the version and writes CHANGELOG.md: every changeset, grouped by area in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prospectkit-release-"));
    for (const file of ["package.json", "package-lock.json", "CHANGELOG.md"])
      if (existsSync(join(ROOT, file))) cpSync(join(ROOT, file), join(dir, file));
    cpSync(join(ROOT, ".changeset"), join(dir, ".changeset"), { recursive: true });
    for (const name of Object.keys(OWN)) writeFileSync(join(dir, ".changeset", name), ownSource(name));
    const changesets = [...pending, ...Object.keys(OWN)];
    const earlier = existsSync(join(ROOT, "CHANGELOG.md")) ? readFileSync(join(ROOT, "CHANGELOG.md"), "utf8").replace(/^# .*\n+/, "") : "";
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules")); // changesets is resolved from here
    await run(process.execPath, [join(ROOT, "scripts/release-version.mjs")], { cwd: dir });
    const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
    const before = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version as string;
    const version = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version as string;
    const bumps = changesets.map((name) => /(patch|minor|major)/.exec(parse(name).bumps)![1]!);
    const [major, minor, patch] = before.split(".").map(Number) as [number, number, number];
    // changesets bumps as written, before 1.0.0 too: the largest bump of all the pending changesets.
    const expected = bumps.includes("major")
      ? `${major + 1}.0.0`
      : bumps.includes("minor")
        ? `${major}.${minor + 1}.0`
        : `${major}.${minor}.${patch + 1}`;
    expect(version).toBe(expected);
    // The lock file says the same version, and nothing else changed in it.
    const lock = (root: string) => JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
    const [released, repository] = [lock(dir), lock(ROOT)];
    expect([released.version, released.packages[""].version]).toEqual([version, version]);
    expect({ ...released, version: "", packages: { ...released.packages, "": { ...released.packages[""], version: "" } } }).toEqual({
      ...repository,
      version: "",
      packages: { ...repository.packages, "": { ...repository.packages[""], version: "" } },
    });
    expect(changelog).toMatch(new RegExp(`^# prospectkit\\n\\n## ${version.replaceAll(".", "\\.")}\\n\\n### `));
    // The earlier versions' sections stay, whole, below the new one.
    expect(changelog.endsWith(earlier)).toBe(true);
    const newest = earlier === "" ? changelog : changelog.slice(0, changelog.length - earlier.length);
    const headings = [...newest.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
    const order = [...AREAS.map(([title]: [string]) => title), "Other changes"];
    // Every area, "Other changes" last, in the script's order (the test's own changesets fill each one).
    expect(headings).toEqual(order);
    // Every line of every changeset appears, under its area's heading (the list only indents them).
    for (const name of changesets) {
      const area = newest.slice(newest.indexOf(`### ${areaOf(name.slice(0, -3))}\n`));
      const section = area.slice(0, area.indexOf("\n### ", 4) === -1 ? undefined : area.indexOf("\n### ", 4));
      for (const line of parse(name)
        .text.split("\n")
        .map((text) => text.trim())
        .filter(Boolean))
        expect(section, name).toContain(line);
    }
    expect(readdirSync(join(dir, ".changeset")).filter((name) => changesets.includes(name))).toEqual([]);
  });

  it("the release's version step is npm run release:version (a plain changeset version writes no changelog: changelog is false)", () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    expect(scripts["release:version"]).toBe("node scripts/release-version.mjs");
  });
});
