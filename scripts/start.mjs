/**
 * `npm start`: builds dist/ when it is missing or older than the sources, then runs the
 * `prospectkit-mock` CLI (with its demo data) in this process. Extra arguments go to the CLI:
 * `npm start -- --port 0 --seed 7`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "dist/mock/server/cli.js");
const SOURCES = ["src", "mock", "tsup.config.ts", "package.json"];

/** The newest modification time under a file or folder, in milliseconds. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

const sourcesChanged = () =>
  SOURCES.map((path) => join(root, path))
    .filter(existsSync)
    .some((path) => newest(path) > statSync(cli).mtimeMs);

if (!existsSync(cli) || sourcesChanged()) {
  process.stderr.write("npm start: building dist/ first (it is missing or older than the sources)…\n");
  const build = spawnSync("npm", ["run", "build", "--silent"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    shell: process.platform === "win32",
  });
  if (build.status !== 0) {
    process.stderr.write("npm start: the build failed; run `npm run build` to see why.\n");
    process.exit(1);
  }
}

await import(pathToFileURL(cli).href);
