/**
 * Test helpers for the standalone server: run the BUILT `prospectkit-mock` binary as a child
 * process (what users run), read its banner, send plain HTTP requests.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { SERVER_VARIABLES } from "../../../mock/server/cli/args.js";

/** The repository root. */
export const ROOT = resolve(import.meta.dirname, "../../..");

/** The built CLI (npm test builds before it runs the tests). */
export const CLI = resolve(ROOT, "dist/mock/server/cli.js");

/** A running CLI process. */
export interface CliProcess {
  readonly child: ChildProcess;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far. */
  stderr(): string;
  /** The base URL from the banner's first line. */
  readonly url: string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Waits until stdout contains `text`. */
  waitFor(text: string | RegExp): Promise<void>;
}

/** The outcome of a CLI run that ends by itself. */
export interface CliExit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The environment a test's CLI runs in unless it gives its own: the tests' own, without the
 * variables the server reads (a developer's exported `PROSPECTKIT_API_KEY` would change the key).
 */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.values(SERVER_VARIABLES)) delete env[name];
  return env;
}

function requireBuild(): void {
  if (!existsSync(CLI)) throw new TypeError(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
}

function collect(child: ChildProcess) {
  let out = "";
  let err = "";
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    for (const wake of waiters) wake();
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
    for (const wake of waiters) wake();
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const waitFor = (text: string | RegExp) =>
    new Promise<void>((done, fail) => {
      const check = () => {
        if (typeof text === "string" ? out.includes(text) : text.test(out)) {
          waiters.delete(check);
          done();
        }
      };
      waiters.add(check);
      check();
      void exited.then(() => {
        if (waiters.has(check)) fail(new TypeError(`the CLI exited before printing ${String(text)}; stderr: ${err}`));
      });
    });
  return { stdout: () => out, stderr: () => err, exited, waitFor };
}

/**
 * Runs the CLI until it exits by itself (a usage error, `--help`, `--version`).
 * @param args - the command line
 * @param node - the Node binary (default: the one running the tests)
 * @param env - the environment (default: the tests' own without the server's variables)
 */
export async function runCliToExit(args: readonly string[], node: string = process.execPath, env: NodeJS.ProcessEnv = cleanEnv()): Promise<CliExit> {
  requireBuild();
  const child = spawn(node, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  const output = collect(child);
  const code = await output.exited;
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

/**
 * Starts the CLI and waits for its banner.
 * @param args - the command line (add `--port 0`: tests never use a fixed port)
 * @param options - the Node binary (or a whole command), the working directory and the environment
 */
export async function startCli(
  args: readonly string[],
  options: { node?: string; command?: string[]; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliProcess> {
  const command = options.command ?? [options.node ?? process.execPath, CLI];
  if (options.command === undefined) requireBuild();
  // Its own process group, signalled whole on stop: what Ctrl+C does in a terminal (npx forwards no signal).
  const child = spawn(command[0]!, [...command.slice(1), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    cwd: options.cwd ?? ROOT,
    env: options.env ?? cleanEnv(),
    detached: true,
  });
  const output = collect(child);
  await output.waitFor(/listening on (\S+)\n/);
  const url = /listening on (\S+)\n/.exec(output.stdout())![1]!;
  return {
    child,
    url,
    stdout: output.stdout,
    stderr: output.stderr,
    waitFor: output.waitFor,
    async stop(signal = "SIGINT") {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid!, signal);
        } catch {
          // already gone
        }
      }
      return output.exited;
    },
  };
}

/** The `curl` commands of a banner, one per printed line. */
export function bannerCurls(banner: string): string[] {
  return banner
    .split("\n")
    .filter((line) => line.startsWith("  curl "))
    .map((line) => line.trim());
}
