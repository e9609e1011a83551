/**
 * Releasing works: `.changeset/config.json` is the hand-written single-package config, every
 * pending changeset bumps `prospectkit` and says something, and `changeset version`, run on a copy
 * of package.json and .changeset/ (never in the repository, where it would consume them), writes a
 * CHANGELOG.md that carries the text of every changeset.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
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
    expect(config).toMatchObject({ baseBranch: "main", access: "public", fixed: [], linked: [], commit: false });
  });

  it.each(changesets)("%s bumps prospectkit and says what changed", (name) => {
    const { bumps, text } = parse(name);
    expect(bumps).toMatch(/^"prospectkit": (patch|minor|major)$/);
    expect(text.length).toBeGreaterThan(40);
  });

  it("changeset version on a copy writes CHANGELOG.md with every changeset", async () => {
    const dir = mkdtempSync(join(tmpdir(), "prospectkit-release-"));
    cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
    cpSync(join(ROOT, ".changeset"), join(dir, ".changeset"), { recursive: true });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules")); // the changelog generator is resolved from here
    await run(process.execPath, [join(ROOT, "node_modules/@changesets/cli/bin.js"), "version"], { cwd: dir });
    const changelog = readFileSync(join(dir, "CHANGELOG.md"), "utf8");
    const version = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
    expect(changelog).toMatch(new RegExp(`^# prospectkit\\n\\n## ${version.replaceAll(".", "\\.")}\\n`));
    // Every line of every changeset appears (the generator only indents them under their bullet).
    for (const name of changesets) {
      for (const line of parse(name)
        .text.split("\n")
        .map((text) => text.trim())
        .filter(Boolean))
        expect(changelog, name).toContain(line);
    }
    expect(readdirSync(join(dir, ".changeset")).filter((name) => changesets.includes(name))).toEqual([]);
  });
});
