/**
 * `npm run image`: the container image of the standalone mock server (Dockerfile), built from the
 * package as it is published.
 *
 *   npm run build && npm run image                      # docker build: prospectkit-mock:<version> and prospectkit-mock:latest
 *   npm run image -- podman                             # another engine: the words after -- (global flags included)
 *   npm run image -- podman --runtime runc -- --pull=never   # words after a second -- go to its build command
 *
 * It stages the build context in .image/ (the only thing .dockerignore lets in): the tarball of
 * `npm run tarball`, installed with npm into .image/node_modules together with its dependencies at
 * the versions package-lock.json holds (the ones the tests ran with). The labels (version, source,
 * licence) are read from package.json here and passed as build arguments, so the Dockerfile holds
 * none of them. The image's own build needs no registry but the one serving its FROM image.
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");

/** The image's name; `:<version>` and `:latest` are tagged. */
export const IMAGE_NAME = "prospectkit-mock";

/** Where the build context is staged (git-ignored; .dockerignore admits only it). */
export const CONTEXT_DIR = ".image";

/**
 * The repository's web address from package.json's `repository`, or "" when it has none.
 * @param {{ repository?: string | { url?: string } }} manifest
 */
export function sourceUrl(manifest) {
  const url = typeof manifest.repository === "string" ? manifest.repository : (manifest.repository?.url ?? "");
  return url.replace(/^git\+/, "").replace(/\.git$/, "");
}

/**
 * The build arguments the Dockerfile's labels are made of, read from package.json.
 * @param {{ version: string, license?: string, repository?: string | { url?: string } }} manifest
 * @returns {Record<string, string>}
 */
export function buildArgs(manifest) {
  return { VERSION: manifest.version, SOURCE: sourceUrl(manifest), LICENSES: manifest.license ?? "" };
}

/**
 * The install specs of the package's dependencies, pinned to the versions the lock file holds.
 * @param {{ dependencies?: Record<string, string> }} manifest
 * @param {{ packages: Record<string, { version?: string }> }} lock
 */
export function pinnedDependencies(manifest, lock) {
  return Object.keys(manifest.dependencies ?? {}).map((name) => {
    const version = lock.packages[`node_modules/${name}`]?.version;
    if (version === undefined) throw new TypeError(`package-lock.json holds no version of ${name}: run npm install`);
    return `${name}@${version}`;
  });
}

/** Runs npm in `cwd` and returns what it printed. */
const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/**
 * Stages .image/: the packed package installed with its pinned dependencies.
 * @returns {string} the staged folder
 */
export function stageContext() {
  if (!existsSync(join(root, "dist/mock/server/cli.js"))) throw new TypeError("dist/ is missing: run `npm run build` first");
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  const work = mkdtempSync(join(tmpdir(), "prospectkit-image-"));
  try {
    npm(["run", "--silent", "tarball", "--", work], root);
    const tarball = readdirSync(work).find((name) => name.endsWith(".tgz"));
    if (tarball === undefined) throw new TypeError(`npm run tarball wrote no tarball into ${work}`);
    writeFileSync(join(work, "package.json"), JSON.stringify({ name: "prospectkit-image", private: true }));
    const flags = ["--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--install-links", "--loglevel=error"];
    npm(["install", ...flags, `./${tarball}`, ...pinnedDependencies(manifest, lock)], work);
    const context = join(root, CONTEXT_DIR);
    rmSync(context, { recursive: true, force: true });
    mkdirSync(context);
    renameSync(join(work, "node_modules"), join(context, "node_modules"));
    return context;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Stages the context and builds the image with `engine`.
 * @param {string[]} engine - the engine's command and global flags (default docker)
 * @param {string[]} extra - flags for its build command
 */
function buildImage(engine, extra) {
  const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  stageContext();
  const args = Object.entries(buildArgs(manifest)).flatMap(([name, value]) => ["--build-arg", `${name}=${value}`]);
  const tags = [`${IMAGE_NAME}:${manifest.version}`, `${IMAGE_NAME}:latest`].flatMap((tag) => ["--tag", tag]);
  const command = [...engine, "build", ...args, ...tags, ...extra, "--file", "Dockerfile", "."];
  process.stderr.write(`> ${command.join(" ")}\n`);
  const { status, error } = spawnSync(command[0], command.slice(1), { cwd: root, stdio: "inherit" });
  if (error !== undefined) throw new TypeError(`${command[0]} could not run (${error.message}); name another engine: npm run image -- podman`);
  if (status !== 0) process.exit(status ?? 1);
  process.stdout.write(`${IMAGE_NAME}:${manifest.version}\n`);
}

// Run as a script (a test imports the helpers).
if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) {
  const words = process.argv.slice(2);
  const split = words.indexOf("--");
  const engine = split === -1 ? words : words.slice(0, split);
  buildImage(engine.length > 0 ? engine : ["docker"], split === -1 ? [] : words.slice(split + 1));
}
