/**
 * Runs once before the matrix: builds and packs the package (under the build lock, so no other
 * build cleans dist/ in between) and installs every runtime that is not left out. An install that
 * fails does not stop the run: the cases of that runtime fail with its error.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TestProject } from "vitest/node";
import { type Installed, installRuntimes } from "./install.ts";
import { RUNTIME_IDS, type RuntimeId } from "./runtimes.ts";
import { skippedRuntimes } from "./skip.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The packed tarball every consumer project installs. */
    tarball: string;
    /** One install outcome per runtime that is not left out. */
    runtimes: Installed[];
    /** The runtimes left out through PROSPECTKIT_SKIP_RUNTIMES (never in CI). */
    skipped: RuntimeId[];
  }
}

const root = resolve(import.meta.dirname, "../..");

/** Builds dist/ and packs it into a fresh folder, both under the build lock. */
function buildAndPack(): string {
  const dir = mkdtempSync(join(tmpdir(), "prospectkit-runtimes-pack-"));
  const script = 'npm run build --silent >&2 && npm run --silent tarball -- "$1" >&2';
  execFileSync("flock", ["/tmp/pk-build.lock", "sh", "-c", script, "sh", dir], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  const file = readdirSync(dir).find((name) => name.endsWith(".tgz"));
  if (!file) throw new TypeError(`npm pack wrote no tarball into ${dir}`);
  return join(dir, file);
}

/**
 * Packs the package and installs the runtimes, then hands both to the test files.
 *
 * @param project - vitest's project, through which the results are provided to `inject()`
 */
export default function setup(project: TestProject): void {
  const skipped = skippedRuntimes();
  const started = performance.now();
  project.provide("tarball", buildAndPack());
  const built = performance.now();
  project.provide("runtimes", installRuntimes(RUNTIME_IDS.filter((id) => !skipped.has(id))));
  project.provide("skipped", [...skipped]);
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  process.stderr.write(`runtimes: build+pack ${seconds(built - started)} s, installs ${seconds(performance.now() - built)} s\n`);
}
