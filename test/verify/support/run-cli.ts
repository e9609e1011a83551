/**
 * Runs the built `prospectkit-mock verify` (dist/, what users run) against a deployment server,
 * with every input it asks for: the page and subscription of the deployment's fixtures, both
 * tenants' keys from the environment (as in CI), `--json` so the test reads the report.
 */
import { spawn } from "node:child_process";
import type { VerifyReport } from "../../../mock/verify/index.js";
import { CLI } from "../../server/support/cli-process.js";
import { INPUTS, KEYS } from "./deployments.js";

/** What a run printed and how it ended. */
export interface CliRun {
  readonly code: number | null;
  readonly report: VerifyReport & { readonly summary: Record<string, number> };
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `verify --json` with every input against `url`.
 * @param url - the deployment's base URL
 * @param args - more arguments (`--strict`, `--rate N`)
 */
export function runVerifyCli(url: string, args: readonly string[] = []): Promise<CliRun> {
  const child = spawn(
    process.execPath,
    [
      CLI,
      "verify",
      "--base-url",
      url,
      "--page",
      `${INPUTS.page.pageGroupId}/${INPUTS.page.pageId}`,
      "--subscription",
      INPUTS.subscription,
      "--json",
      ...args,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PROSPECTKIT_API_KEY: KEYS.a, PROSPECTKIT_OTHER_TENANT_KEY: KEYS.b } },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      try {
        resolve({ code, report: JSON.parse(stdout), stdout, stderr });
      } catch {
        reject(new Error(`verify printed no JSON report (exit ${code}): ${stdout}${stderr}`));
      }
    });
  });
}

/** Runs at most `limit` of the given tasks at once (a 2-core machine shared with others: a few CLI processes, not dozens). */
export function limiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finished task hands its slot to the next one waiting, so no newcomer can slip in between.
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next === undefined) running -= 1;
      else next();
    }
  };
}
