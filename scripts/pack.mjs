/**
 * Packs the package users install: the files `npm pack` would ship (the same list, from npm's own
 * `npm pack --dry-run --json`), with a package.json that carries no `scripts`. The repository's
 * scripts are for its developers (`start`, `bench` and `check-engines` run files the package does
 * not ship); the repository has no install lifecycle script, on which npm 11 would warn at every
 * install.
 *
 *   npm run tarball                # writes prospectkit-<version>.tgz here and prints its path
 *   npm run tarball -- <directory> # writes it into <directory>
 *   npm publish prospectkit-<version>.tgz --provenance
 *
 * The README is what the registry's package page shows, where a relative link leads nowhere: the
 * packed README's relative links become absolute ones into the repository (package.json's
 * `repository`) at the release's tag `v<version>`, pages under `/blob/`, images from
 * raw.githubusercontent.com. The guides (docs/*.md) ship as they are: their relative links lead to
 * the shipped files, and the tarball test checks that every one of them does.
 *
 * `npm publish` of the work tree itself is refused (`prepublishOnly` runs this script with
 * `--refuse-publish`): it would publish the developers' scripts. Nothing here writes to the work
 * tree but the tarball, so packs may run side by side (the test suite packs in several files).
 * @module
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

/**
 * The repository's web address, from package.json's `repository` (`git+https://github.com/o/r.git`).
 * @param {{ repository?: string | { url?: string } }} manifest
 */
export function repositoryUrl(manifest) {
  const url = typeof manifest.repository === "string" ? manifest.repository : manifest.repository?.url;
  const match = /^(?:git\+)?(https:\/\/github\.com\/[\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(url ?? "");
  if (match === null) throw new TypeError(`package.json: repository must be a GitHub https URL, not ${JSON.stringify(url)}`);
  return match[1];
}

/**
 * A Markdown text with every relative link made absolute: into the repository at `ref`, an image
 * (`![...](...)`) as its raw file. Fenced code blocks and in-page anchors (`#...`) are left alone.
 * @param {string} markdown
 * @param {string} repository - e.g. https://github.com/prospectkit/prospectkit
 * @param {string} ref - the tag or branch, e.g. v0.1.0
 */
export function absoluteLinks(markdown, repository, ref) {
  const raw = repository.replace("https://github.com/", "https://raw.githubusercontent.com/");
  return markdown
    .split(/(^```[^\n]*\n[\s\S]*?^```$)/m)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (link, bang, text, target) =>
            /^([a-z][a-z0-9+.-]*:|#)/i.test(target) ? link : `${bang}[${text}](${bang ? `${raw}/${ref}` : `${repository}/blob/${ref}`}/${target})`,
          ),
    )
    .join("");
}

/** Packs into `destination` and prints the tarball's path. */
function pack(destination) {
  // --ignore-scripts: packing needs no lifecycle script (dist/ is built by `npm run build`).
  const npm = (args, cwd) =>
    execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], shell: process.platform === "win32" });
  const [{ files }] = JSON.parse(npm(["pack", "--dry-run", "--json", "--ignore-scripts"], root));
  const stage = mkdtempSync(join(tmpdir(), "prospectkit-stage-"));
  try {
    for (const { path } of files) {
      mkdirSync(dirname(join(stage, path)), { recursive: true });
      cpSync(join(root, path), join(stage, path));
    }
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    delete manifest.scripts;
    writeFileSync(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const readme = join(stage, "README.md");
    writeFileSync(readme, absoluteLinks(readFileSync(readme, "utf8"), repositoryUrl(manifest), `v${manifest.version}`));
    mkdirSync(destination, { recursive: true });
    const [{ filename }] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", destination], stage));
    console.log(join(destination, filename));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

// Run as a script (not imported by a test for its helpers).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) {
  if (process.argv[2] === "--refuse-publish") {
    console.error(
      "prospectkit: publish the tarball without the developers' scripts instead: `npm run tarball`, then `npm publish prospectkit-<version>.tgz`.",
    );
    process.exit(1);
  }
  pack(resolve(process.argv[2] ?? "."));
}
