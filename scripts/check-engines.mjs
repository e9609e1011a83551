/**
 * The engine check that fits this project (`npm run check-engines`, and in `npm test` through
 * test/architecture/engines.test.ts), on the project's own Node (npm puts node_modules/.bin, where
 * the `node` devDependency lives, first on PATH). Not an install script: npm 11 warns on every
 * install of a package that has one.
 *
 * npm checks every package's `engines.node` against the Node that runs npm itself: on a machine
 * with Node 20 that is ~25 false alarms (~125 lines) for the toolchain, which never runs on Node
 * 20 but on the project's Node 24. .npmrc therefore sets `loglevel=error` for npm, and this script
 * does the check the right way round, so that no real mismatch goes unseen:
 * - a package only the toolchain needs (`dev` in package-lock.json) is checked against the Node
 *   that runs the toolchain (this process's);
 * - a package the published prospectkit needs is checked against the lowest Node prospectkit
 *   supports (`engines.node` of package.json).
 * It prints one line when all is well, and every mismatch otherwise (a warning, like npm's: the
 * install goes on).
 */
import { existsSync, readFileSync } from "node:fs";
import semver from "semver";

const root = new URL("../", import.meta.url);
const lock = JSON.parse(readFileSync(new URL("package-lock.json", root), "utf8"));
const supported = semver.minVersion(lock.packages[""].engines.node).version;
const toolchain = process.version.slice(1);

const mismatches = [];
let checked = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  const range = entry.engines?.node;
  // Only installed packages: an optional package of another platform is never unpacked here.
  if (path === "" || typeof range !== "string" || !existsSync(new URL(`${path}/package.json`, root))) continue;
  checked++;
  const toolchainOnly = entry.dev === true || entry.devOptional === true;
  const runsOn = toolchainOnly ? toolchain : supported;
  if (semver.satisfies(runsOn, range, { includePrerelease: true })) continue;
  const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
  mismatches.push(
    `  ${name}@${entry.version} wants Node ${range}; it runs on Node ${runsOn} (${toolchainOnly ? "the toolchain's" : "the lowest prospectkit supports"})`,
  );
}

if (mismatches.length > 0) {
  console.error(`check-engines: ${mismatches.length} installed package(s) do not support the Node they run on:\n${mismatches.join("\n")}`);
} else {
  console.log(
    `check-engines: ${checked} packages fit the Node they run on (toolchain: Node ${toolchain}; prospectkit's dependencies: Node >= ${supported})`,
  );
}
