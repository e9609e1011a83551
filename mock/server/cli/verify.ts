/**
 * `prospectkit-mock verify`: runs the contract rules (mock/verify/) black box against a
 * deployment and prints what it found: a table grouped by operation (or `--json`), a JUnit file
 * for CI (`--junit FILE`), a progress line on a terminal; exit code 0 (pass), 1 (failures that
 * count), 2 (could not run or complete: a usage error, an unreachable deployment, Ctrl+C, an input
 * the deployment does not know, a subscription not shown restored), 3 (incomplete: the budget left
 * rules not run). The API keys are
 * read from the command line or the environment and sent in the `x-api-key` header only: never
 * printed, never written to a file.
 * @module
 */
import { writeFileSync } from "node:fs";
import { CONTRACT_RULES, DEFAULT_MAX_REQUESTS, DEFAULT_RATE, formatReport, reportJson, reportJunit, runVerify } from "../../verify/index.js";
import { UsageError } from "./args.js";
import { readArgs } from "./read-args.js";

/** The environment variables read when the key options are not given (keeps keys out of `ps` and CI logs). */
export const KEY_VARIABLES = { apiKey: "PROSPECTKIT_API_KEY", otherTenantKey: "PROSPECTKIT_OTHER_TENANT_KEY" } as const;

/** The `verify --help` text. */
export const VERIFY_HELP = `Usage: prospectkit-mock verify --base-url URL [options]

Runs the mock's behaviour rules (${CONTRACT_RULES.length} of them) against any deployment of the API, black box,
and reports each as passed, failed, skipped (an input is missing) or not run, with its class:
spec (binding) or mock decision (docs/behaviour.md). With a valid key it sends only the three
operations, or GET, HEAD and OPTIONS (safe by definition). It writes prospect log entries tagged
"prospectkit-verify" (on prospects only the run made) and changes the --subscription, put back at
the end: the report says "restored" only when a read-back shows it.

Options:
      --base-url URL           the deployment (e.g. https://staging.example.com)
      --api-key KEY            its API key (default: the ${KEY_VARIABLES.apiKey} environment variable; prefer it in CI)
      --page GROUP/PAGE        an existing page with a published version (runs the page rules)
      --subscription ID        a subscription with an events list the rules may change; put back at the end
      --other-tenant-key KEY   a key of another tenant (runs the isolation rules; default ${KEY_VARIABLES.otherTenantKey})
      --strict                 fail on mock-decision failures too (by default only spec failures fail)
      --json                   print the report as JSON instead of a table
      --junit FILE             also write the report as JUnit XML to FILE
      --max-requests N         send at most N requests in all (default ${DEFAULT_MAX_REQUESTS})
      --rate N                 send at most N requests in any one-second window (default ${DEFAULT_RATE})
  -h, --help                   show this help

Exit code: 0 pass; 1 failures (spec; every failure with --strict), every other rule still run;
2 could not run or complete (a usage error, an unreachable deployment, Ctrl+C, a --page or
--subscription the deployment does not know, a subscription not shown restored); 3 incomplete:
the --max-requests budget was spent with rules not run (and no failure that counts).`;

const OPTIONS = {
  "base-url": { type: "string" },
  "api-key": { type: "string" },
  page: { type: "string" },
  subscription: { type: "string" },
  "other-tenant-key": { type: "string" },
  strict: { type: "boolean" },
  json: { type: "boolean" },
  junit: { type: "string" },
  "max-requests": { type: "string" },
  rate: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** A number option: whole (or not) within bounds, else a usage error. */
function numberOption(flag: string, text: string | undefined, fallback: number, min: number, max: number, whole: boolean): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || value < min || value > max || (whole && !Number.isInteger(value)))
    throw new UsageError(`--${flag} must be ${whole ? "a whole number" : "a number"} from ${min} to ${max}, not ${JSON.stringify(text)}`);
  return value;
}

/**
 * Reads the command line of `verify`.
 * @param argv - the arguments after `verify`
 * @param env - the environment (the keys' fallback)
 * @throws {UsageError} for a missing or malformed option
 */
export function parseVerifyArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const values = readArgs(argv, { options: OPTIONS, help: "verify --help" });
  if (values.help) return { help: true as const };
  const baseUrl = values["base-url"];
  if (baseUrl === undefined) throw new UsageError("verify needs --base-url URL (see verify --help)");
  if (!/^https?:\/\/[^/?#\s]+/i.test(baseUrl) || !URL.canParse(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL, not ${JSON.stringify(baseUrl)}`);
  const apiKey = values["api-key"] ?? env[KEY_VARIABLES.apiKey];
  if (apiKey === undefined || apiKey === "") throw new UsageError(`verify needs --api-key KEY (or the ${KEY_VARIABLES.apiKey} environment variable)`);
  const otherTenantKey = values["other-tenant-key"] ?? (env[KEY_VARIABLES.otherTenantKey] || undefined);
  let page: { pageGroupId: string; pageId: string } | undefined;
  if (values.page !== undefined) {
    const slash = values.page.indexOf("/");
    if (slash <= 0 || slash === values.page.length - 1) throw new UsageError(`--page must be GROUP/PAGE (e.g. pagegroup_x/page_y)`);
    page = { pageGroupId: values.page.slice(0, slash), pageId: values.page.slice(slash + 1) };
  }
  if (values.subscription === "") throw new UsageError("--subscription must name a subscription");
  if (values.junit === "") throw new UsageError("--junit must name a file");
  return {
    help: false as const,
    baseUrl,
    apiKey,
    otherTenantKey,
    page,
    subscription: values.subscription,
    strict: values.strict === true,
    json: values.json === true,
    junit: values.junit,
    maxRequests: numberOption("max-requests", values["max-requests"], DEFAULT_MAX_REQUESTS, 1, 10_000, true),
    rate: numberOption("rate", values.rate, DEFAULT_RATE, 0.1, 1000, false),
  };
}

/**
 * Runs `verify` (the CLI's `prospectkit-mock verify ...`).
 * @param argv - the arguments after `verify`
 * @returns the exit code
 */
export async function runVerifyCli(argv: readonly string[]): Promise<number> {
  const options = parseVerifyArgs(argv);
  if (options.help) return process.stdout.write(`${VERIFY_HELP}\n`), 0;
  const stop = new AbortController();
  const interrupt = () => {
    if (stop.signal.aborted) return;
    process.stderr.write("\nprospectkit-mock verify: interrupted; putting the subscription back and reporting what ran\n");
    stop.abort();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, interrupt);
  const terminal = process.stderr.isTTY === true;
  process.stderr.write(
    `prospectkit-mock verify: ${CONTRACT_RULES.length} rules against ${options.baseUrl}, at most ${options.maxRequests} requests\n`,
  );
  try {
    const report = await runVerify({
      ...options,
      signal: stop.signal,
      onProgress: (done, total, rule) => {
        if (terminal) process.stderr.write(`\r\x1b[2K[${done + 1}/${total}] ${rule.id}`);
      },
    });
    if (terminal) process.stderr.write("\r\x1b[2K");
    process.stdout.write(options.json ? reportJson(report) : formatReport(report));
    if (options.junit !== undefined) {
      try {
        writeFileSync(options.junit, reportJunit(report));
      } catch (error) {
        process.stderr.write(
          `prospectkit-mock verify: cannot write --junit ${options.junit}: ${(error as NodeJS.ErrnoException).code ?? "failed"}\n`,
        );
        return 2;
      }
    }
    return report.exitCode;
  } finally {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.off(signal, interrupt);
  }
}
