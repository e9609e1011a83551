/**
 * podman as it runs on these machines: runc (crun fails on their cgroups), cgroupfs (no systemd),
 * and rlimits under the hard limits (podman's defaults exceed them). Every call of the container
 * test goes through here.
 */
import { execFileSync, spawn } from "node:child_process";

/** podman and its global flags. */
export const PODMAN = ["podman", "--runtime", "runc", "--cgroup-manager=cgroupfs"] as const;

/** The flags every `podman run` and `podman create` gets. */
export const RUN_FLAGS = ["--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024"] as const;

/**
 * Runs podman and returns what it printed on stdout, trimmed.
 * @param args - the command after the global flags
 * @param timeoutMs - how long it may take
 * @throws Error with podman's stderr when it exits non-zero
 */
export function podman(args: readonly string[], timeoutMs = 120_000): string {
  try {
    return execFileSync(PODMAN[0], [...PODMAN.slice(1), ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: timeoutMs }).trim();
  } catch (error) {
    const { stderr, status } = error as { stderr?: string; status?: number };
    throw new TypeError(`podman ${args.join(" ")} exited ${status}: ${noise(stderr ?? "")}`);
  }
}

/** podman's stderr without the lines it prints on every machine without systemd or syslog. */
export function noise(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => !/systemd connection|connect to syslog|HEALTHCHECK is not supported/.test(line))
    .join("\n")
    .trim();
}

/** A podman process that runs in the foreground (`podman run` without -d), as a user's terminal would. */
export interface Foreground {
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Resolves when stdout matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Sends a signal to podman (which passes it to the container, as Docker's client does) and waits for the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  /** The exit code, once it has exited. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `podman <args>` in the foreground.
 * @param args - the command after the global flags
 */
export function foreground(args: readonly string[]): Foreground {
  const child = spawn(PODMAN[0], [...PODMAN.slice(1), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return {
    stdout: () => out,
    exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
        const match = pattern.exec(out);
        if (match !== null) return match;
        if (child.exitCode !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new TypeError(`podman ${args.join(" ")} printed no ${pattern} (exit ${child.exitCode}):\n${out}\n${noise(err)}`);
    },
    async stop(signal) {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
