/**
 * Releasing works: `.changeset/config.json` is the hand-written single-package config (its own
 * changelog writer off), every pending changeset bumps `prospectkit` and says something, and
 * `npm run release:version` (scripts/release-version.mjs), run on a copy of package.json and
 * .changeset/ (never in the repository, where it would consume them), bumps the version and writes
 * a CHANGELOG.md section that groups every changeset's text by area, in the script's order.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain-JavaScript script of the repository, without types
import { AREAS, areaOf } from "../../scripts/release-version.mjs";
import { ROOT } from "./markdown.js";

const run = promisify(execFile);
const changesets = readdirSync(join(ROOT, ".changeset")).filter((name) => name.endsWith(".md") && name !== "README.md");

/** The text of a changeset after its front matter, and its bumps. */
function parse(name: string): { bumps: string; text: string } {
  const [, bumps = "", text = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(readFileSync(join(ROOT, ".changeset", name), "utf8")) ?? [];
  return { bumps: bumps.trim(), text: text.trim() };
}

describe("changesets", () => {
  it("config: one public package released from main", () => {
    const config = JSON.parse(readFileSync(join(ROOT, ".changeset/config.json"), "utf8"));
    expect(config).toMatchObject({ baseBranch: "main", access: "public", fixed: [], linked: [], commit: false, changelog: false });
  });

  it.each(changesets)("%s bumps prospectkit and says what changed", (name) => {
    const { bumps, text } = parse(name);
    expect(bumps).toMatch(/^"prospectkit": (patch|minor|major)$/);
    expect(text.length).toBeGreaterThan(40);
  });

  it("npm run release:version on a copy bumps the version and writes CHANGELOG.md: every changeset, grouped by area in order", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prospectkit-release-"));
    for (const file of ["package.json", "package-lock.json"]) cpSync(join(ROOT, file), join(dir, file));
    cpSync(join(ROOT, ".changeset"), join(dir, ".changeset"), { recursive: true });
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
    const headings = [...changelog.matchAll(/^### (.+)$/gm)].map((match) => match[1]);
    const order = [...AREAS.map(([title]: [string]) => title), "Other changes"];
    expect(headings).toEqual(order.filter((title) => headings.includes(title)));
    // Every line of every changeset appears, under its area's heading (the list only indents them).
    for (const name of changesets) {
      const area = changelog.slice(changelog.indexOf(`### ${areaOf(name.slice(0, -3))}\n`));
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
