/**
 * Runs a runtime's binary as a child process with a deadline, collecting its output.
 */
import { spawn } from "node:child_process";

/** What a finished child process left behind. */
export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a binary to its end, or kills it at the deadline.
 *
 * @param bin - the binary
 * @param args - its arguments
 * @param options - the working folder, extra environment and the deadline (60 s by default)
 * @returns its exit code and output
 * @throws TypeError when it exits non-zero or misses the deadline, with its output
 */
export function runToEnd(bin: string, args: string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<Finished> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const finished = { code, signal, stdout, stderr };
      if (code === 0) resolvePromise(finished);
      else reject(new TypeError(`${bin} ${args.join(" ")} ended with ${signal ?? `exit code ${code}`}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    });
  });
}
