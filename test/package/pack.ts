import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "../..");

/** Runs npm (the project's npm, on the project's Node) and returns stdout. */
export function npm(args: string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Packs the already-built package into a fresh folder, as it is published (`npm run tarball`:
 * scripts/pack.mjs, the package.json without the developers' scripts), and returns the tarball's
 * path. The tests always exercise the tarball, never the source tree.
 */
export function packTarball(): string {
  const dir = mkdtempSync(join(tmpdir(), "prospectkit-pack-"));
  npm(["run", "--silent", "tarball", "--", dir], root);
  const file = readdirSync(dir).find((name) => name.endsWith(".tgz"));
  if (!file) throw new TypeError(`npm pack wrote no tarball into ${dir}`);
  return join(dir, file);
}

/** Creates an empty project that depends on the tarball (plus `extra` packages) and installs it. */
export function installIntoEmptyProject(tarball: string, extra: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), "prospectkit-consumer-"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, version: "1.0.0" }));
  npm(["install", "--no-audit", "--no-fund", "--silent", tarball, ...extra], dir);
  return dir;
}
