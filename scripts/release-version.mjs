/**
 * `npm run release:version`: the version step of a release. It reads the pending changesets
 * (`.changeset/*.md`), runs `changeset version` (which bumps package.json and consumes them; its own
 * changelog writer is off in `.changeset/config.json`), gives package-lock.json the same version,
 * then writes the new version's section at
 * the top of CHANGELOG.md with the changes grouped by area, in a fixed order (SDK, mock, server,
 * console, contract check, package, docs), each area's larger changes (major, minor) first.
 *
 * A changeset's area comes from its file name: name it after what it changes, starting with
 * `sdk-`, `mock-`, `server-`, `console-`, `verify-`, `package-` or `docs-` (the patterns below also
 * place the names written before this rule). A name that fits no area lands under "Other changes".
 *
 * Runs in the current directory (the repository; the test suite runs it on a copy).
 * @module
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

/** The areas of the changelog, in the order they are printed, and the changeset names each takes (first match wins). */
export const AREAS = [
  ["SDK", /^(sdk-|spec-|named-types|ofetch|secrets|hostile-servers|field-error|url-rule|deliberate-public-surface|webhooks$)/],
  [
    "Mock (`prospectkit/mock`)",
    /^(?!.*console)(mock|msw-|one-handler|core-request-log|logged-request|tenant-|state-record|hostile-input|events-|openapi)/,
  ],
  [
    "Mock server (`prospectkit-mock`, `startMockServer`)",
    /^(server|cli-|early-answers|lean-server|linger|state-file|state-lock|keep-alive|banner|control-index|webhook-delivery|webhooks-sent|container)/,
  ],
  ["Mock console", /console/],
  ["Contract check and validating proxy", /^(verify|contract|proxy)/],
  ["Package and install", /^(package-|silent-install)/],
  ["Docs", /^(docs|readme|quick-starts|testing-and|browser-app)/],
];

const OTHER = "Other changes";
const BUMPS = ["major", "minor", "patch"];

/**
 * The pending changesets of `prospectkit`: name, bump and text.
 * @param {string} dir - the .changeset folder
 */
export function pendingChangesets(dir) {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".md") && name !== "README.md")
    .sort()
    .map((file) => {
      const [, front = "", text = ""] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(readFileSync(join(dir, file), "utf8")) ?? [];
      const bump = /"prospectkit":\s*(major|minor|patch)/.exec(front)?.[1];
      if (bump === undefined) throw new TypeError(`.changeset/${file}: no "prospectkit": major|minor|patch bump`);
      return { name: file.slice(0, -3), bump, text: text.trim() };
    });
}

/** The area a changeset's name puts it in. */
export const areaOf = (name) => AREAS.find(([, pattern]) => pattern.test(name))?.[0] ?? OTHER;

/**
 * The changelog section of a version: `## version`, then one `###` heading per area that has
 * changes, each change a list item (its later paragraphs indented under it).
 * @param {string} version
 * @param {{ name: string, bump: string, text: string }[]} changesets
 */
export function changelogSection(version, changesets) {
  const lines = [`## ${version}`];
  for (const area of [...AREAS.map(([title]) => title), OTHER]) {
    const entries = changesets
      .filter((changeset) => areaOf(changeset.name) === area)
      .sort((a, b) => BUMPS.indexOf(a.bump) - BUMPS.indexOf(b.bump) || a.name.localeCompare(b.name));
    if (entries.length === 0) continue;
    lines.push("", `### ${area}`, "");
    for (const { text } of entries)
      lines.push(
        `- ${text
          .split("\n")
          .join("\n  ")
          .replace(/\n {2}\n/g, "\n\n")}`,
      );
  }
  return `${lines.join("\n")}\n`;
}

function main() {
  const cwd = process.cwd();
  const changesets = pendingChangesets(join(cwd, ".changeset"));
  if (changesets.length === 0) throw new TypeError("no pending changeset: nothing to release");
  const bin = createRequire(join(cwd, "package.json")).resolve("@changesets/cli/bin.js");
  execFileSync(process.execPath, [bin, "version"], { cwd, stdio: "inherit" });
  const { name, version } = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8"));
  // changesets leaves the lock file's own version behind: `npm ci` would still install, but the two would disagree.
  const lockFile = join(cwd, "package-lock.json");
  if (existsSync(lockFile)) {
    const lock = JSON.parse(readFileSync(lockFile, "utf8"));
    lock.version = version;
    if (lock.packages?.[""] !== undefined) lock.packages[""].version = version;
    writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  }
  const file = join(cwd, "CHANGELOG.md");
  const before = existsSync(file) ? readFileSync(file, "utf8").replace(/^# .*\n+/, "") : "";
  writeFileSync(file, `# ${name}\n\n${changelogSection(version, changesets)}${before === "" ? "" : `\n${before}`}`);
  process.stdout.write(`${name} ${version}: CHANGELOG.md has ${changesets.length} changes; review it, then commit\n`);
}

if (process.argv[1] !== undefined && import.meta.filename === resolve(process.argv[1])) main();
