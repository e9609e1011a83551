/**
 * The browser recipe's example project, made as a user would: a throw-away folder that installed
 * the packed prospectkit and one msw major from npm (vite, typescript and @types/node linked from
 * the repository, as devDependencies the app already has), the recipe's three files taken as
 * written from docs/testing.md's `app: <path>` blocks, and the small app of `../app/`. Vite runs
 * in it as `npx vite` and `npx vite build` would, in child processes with a plain shell's
 * environment (no NODE_ENV or VITEST variables from the test runner).
 */
import { execFile, spawn } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { type CodeBlock, codeBlocks, ROOT } from "../../docs/markdown.ts";
import { installIntoEmptyProject } from "../../package/pack.ts";
import { finishConsumerProject } from "../../support/consumer-project.ts";

const run = promisify(execFile);
const APP_SOURCES = join(import.meta.dirname, "..", "app");
const VITE_BIN = join(ROOT, "node_modules/vite/bin/vite.js");

/** The recipe's files, by their path in the project: every `app: <path>` block of docs/testing.md. */
export function recipeBlocks(): CodeBlock[] {
  return codeBlocks("docs/testing.md").filter((block) => block.app !== undefined);
}

/** The environment of a plain shell: the test runner's own variables left out, so Vite decides its mode itself. */
function shellEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => name !== "NODE_ENV" && !name.startsWith("VITEST"));
  return { ...Object.fromEntries(inherited), NO_COLOR: "1", ...extra };
}

/**
 * Creates the project: the tarball and `msw` installed, the recipe's blocks and the app written.
 *
 * @param tarball - the packed prospectkit
 * @param msw - the msw to install, e.g. `msw@3.0.5`
 * @returns the project's folder
 */
export function createAppProject(tarball: string, msw: string): string {
  const dir = installIntoEmptyProject(tarball, [msw]);
  finishConsumerProject(dir, ["vite", "typescript", "@types/node"]);
  for (const block of recipeBlocks()) {
    mkdirSync(dirname(join(dir, block.app!)), { recursive: true });
    writeFileSync(join(dir, block.app!), block.code);
  }
  copyFileSync(join(APP_SOURCES, "index.html"), join(dir, "index.html"));
  copyFileSync(join(APP_SOURCES, "app.ts"), join(dir, "src/app.ts"));
  copyFileSync(join(APP_SOURCES, "tsconfig.json"), join(dir, "tsconfig.json"));
  return dir;
}

/**
 * Type-checks the project with the repository's TypeScript (`tsc -p .`, strict).
 * @returns tsc's output: empty when the project type-checks
 */
export async function typeCheck(dir: string): Promise<string> {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  return run(process.execPath, [tsc, "-p", "."], { cwd: dir, env: shellEnvironment() }).then(
    () => "",
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`.trim(),
  );
}

/**
 * Builds the project with `vite build` into `outDir`.
 * @param nodeEnv - `development` builds what the dev server would run (the mock included); default a production build
 */
export async function viteBuild(dir: string, outDir: string, nodeEnv?: "development"): Promise<void> {
  const env = shellEnvironment(nodeEnv === undefined ? {} : { NODE_ENV: nodeEnv });
  await run(process.execPath, [VITE_BIN, "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "warn"], { cwd: dir, env }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      throw new TypeError(`vite build failed:\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
    },
  );
}

/** A port the OS just handed out, free again (Vite is told to take exactly it). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** A running Vite dev server. */
export interface DevServer {
  /** The app's URL, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** Everything Vite printed so far. */
  output(): string;
  /** Stops the server (the child process this module started) and waits for it to end. */
  stop(): Promise<void>;
}

/**
 * Starts `vite` (the dev server) in the project on a loopback port and waits until it listens.
 * @throws TypeError, with Vite's output, when it has not started within 60 s or exits
 */
export async function startDevServer(dir: string): Promise<DevServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(process.execPath, [VITE_BIN, "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    cwd: dir,
    env: shellEnvironment(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // Vite prints its URL once it listens: that line is the event waited for, not a poll of the output.
  let listening!: () => void;
  const printed = new Promise<void>((done) => (listening = done));
  const read = (chunk: string) => {
    output += chunk;
    if (output.includes(url)) listening();
  };
  child.stdout.setEncoding("utf8").on("data", read);
  child.stderr.setEncoding("utf8").on("data", read);
  const ended = new Promise<void>((done) => child.on("close", () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await ended;
  };
  const gaveUp = AbortSignal.timeout(60_000);
  const tooLate = new Promise<void>((done) => gaveUp.addEventListener("abort", () => done()));
  await Promise.race([printed, ended, tooLate]);
  if (!output.includes(url)) {
    await stop();
    throw new TypeError(`vite did not start on ${url}:\n${output}`);
  }
  return { url, output: () => output, stop };
}

/** Removes a project. */
export function removeProject(dir: string | undefined): void {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}
