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

if (process.argv[2] === "--refuse-publish") {
  console.error(
    "prospectkit: publish the tarball without the developers' scripts instead: `npm run tarball`, then `npm publish prospectkit-<version>.tgz --provenance`.",
  );
  process.exit(1);
}

const destination = resolve(process.argv[2] ?? ".");
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
  mkdirSync(destination, { recursive: true });
  const [{ filename }] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", destination], stage));
  console.log(join(destination, filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
