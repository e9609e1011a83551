/**
 * The command line of `prospectkit-mock`, read with `node:util`'s `parseArgs` (no dependency).
 * Every mistake becomes a {@link UsageError}: one line, exit code 2; a mistyped option or command
 * names the closest ones (`Did you mean --port?`).
 * @module
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { DEFAULT_API_KEY } from "../../core.js";
import { DEFAULT_MAX_TENANTS } from "../../options.js";
import { WEBHOOK_ATTEMPT_TIMEOUT_MS } from "../../webhooks/index.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../start.js";
import { readArgs } from "./read-args.js";
import { UsageError } from "./usage-error.js";

export { UsageError };

/**
 * The environment variables the server reads for an option the command line leaves out. A key
 * read from the environment stays out of `ps` and is never printed (the banner names the
 * variable instead); the container image sets the host to `0.0.0.0` this way, so arguments of
 * your own never drop it.
 */
export const SERVER_VARIABLES = { apiKey: "PROSPECTKIT_API_KEY", host: "PROSPECTKIT_MOCK_HOST" } as const;

const OPTIONS = {
  port: { type: "string", short: "p" },
  host: { type: "string" },
  "api-key": { type: "string", multiple: true },
  seed: { type: "string" },
  data: { type: "string" },
  state: { type: "string" },
  // Declared on its own: parseArgs' allowNegative needs Node 22.4, and the CLI runs on Node 20.
  "no-demo": { type: "boolean" },
  latency: { type: "string" },
  "no-webhooks": { type: "boolean" },
  "webhook-time-scale": { type: "string" },
  "webhook-timeout": { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "cors-origin": { type: "string", multiple: true },
  "max-tenants": { type: "string" },
  "proxy-to": { type: "string" },
  record: { type: "string" },
  fallback: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** The `--help` text. */
export const HELP = `Usage: prospectkit-mock [options]
       prospectkit-mock verify --base-url URL [options]   (see verify --help)

Serves the prospectkit mock API over HTTP: stateful, seedable, with a control API under /__mock
and an OpenAPI document at /openapi.json.

Options:
  -p, --port PORT      port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)
      --host HOST      interface to bind (default $${SERVER_VARIABLES.host}, else ${DEFAULT_HOST}: loopback only)
      --api-key KEY    accept this API key (repeatable; default $${SERVER_VARIABLES.apiKey}, else the
                       development key ${DEFAULT_API_KEY})
      --seed SEED      seed for generated IDs (a number or a string; default 0)
      --data FILE      load fixtures from a JSON file (validated at start)
      --state FILE     keep the whole state in FILE across restarts (created on first start,
                       seeded then by the demo and --data; one server per file)
      --no-demo        start without the demo page and subscription
      --latency MS     answer every API request MS milliseconds late
      --no-webhooks    record webhook events without sending them
      --webhook-time-scale N
                       run the webhook retry schedule N times faster (3600: an hour per second)
      --webhook-timeout MS
                       give up on a delivery attempt after MS milliseconds (default ${WEBHOOK_ATTEMPT_TIMEOUT_MS})
      --allowed-host NAME
                       also answer requests for this host name (repeatable; .example.com: the
                       name and its subdomains; '*': every name). By default only loopback
                       names (localhost), IP addresses and --host are answered (DNS rebinding)
      --cors-origin ORIGIN
                       also let pages from this origin call the control API, console and inbox
                       (repeatable; '*': every origin). By default only loopback origins may;
                       /v0 answers every origin
      --max-tenants N  hold at most N tenants made by POST /__mock/tenants at once (default
                       ${DEFAULT_MAX_TENANTS.toLocaleString("en-US")}); past it the route answers 409 until one is deleted
      --proxy-to URL   forward the API's operations to the deployment at URL, checking each
                       request and answer against the API's schemas (violations in the request
                       lines, the console and GET /__mock/requests; docs/contract-check.md)
      --record FILE    with --proxy-to: write the pages, subscriptions and prospects seen as a
                       fixture file that --data loads (never a key); a FILE ending in .har
                       gets the exchanges as an HTTP Archive (HAR 1.2) instead
      --fallback       with --proxy-to: answer from the mock when the target does not answer or
                       has no such route (start with --api-key set to the key your app sends)
  -q, --quiet          do not print a line per request or webhook attempt
  -h, --help           show this help
  -v, --version        show the version`;

/**
 * The guide to the server in the installed package (the tarball ships docs/): the `docs/server.md`
 * beside the `package.json` nearest above the running script, so the path printed is one to open.
 * @param script - the running script (`process.argv[1]`, a `.bin` link resolved to dist/)
 * @returns its absolute path, or `undefined` when the script is not inside the package
 */
export function serverGuide(script: string | undefined = process.argv[1]): string | undefined {
  if (script === undefined || !existsSync(script)) return undefined;
  for (let dir = dirname(realpathSync(script)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) {
      const guide = join(dir, "docs", "server.md");
      return existsSync(guide) ? guide : undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The `--help` text, ending with where the guide is.
 * @param guide - the guide's path (default: found from the running script)
 */
export function helpText(guide: string | undefined = serverGuide()): string {
  return `${HELP}\n\nDocs: ${guide ?? "docs/server.md in the prospectkit package"}; the API itself: GET /openapi.json on the running server.`;
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** What each checked flag accepts, and what its usage error says it must be. */
const RULES = {
  port: [(text) => /^\d{1,5}$/.test(text) && Number(text) <= 65_535, "a whole number from 0 to 65535"],
  latency: [(text) => DECIMAL.test(text) && Number(text) <= 600_000, "milliseconds from 0 to 600000"],
  // Past 1e9, 5 days of schedule already pass in under a millisecond.
  "webhook-time-scale": [(text) => DECIMAL.test(text) && Number(text) > 0 && Number(text) <= 1e9, "a number above 0, up to 1000000000"],
  // A receiver that takes longer than 10 minutes is down.
  "webhook-timeout": [(text) => /^\d{1,9}$/.test(text) && Number(text) >= 1 && Number(text) <= 600_000, "whole milliseconds from 1 to 600000"],
  "allowed-host": [
    (text) => /^(?:\*|\.?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/.test(text),
    "a host name such as mock or .example.com (or '*')",
  ],
  "cors-origin": [(text) => text === "*" || /^https?:\/\/[^/?#@\s]+\/?$/i.test(text), "an origin such as https://app.example.com (or '*')"],
  "max-tenants": [(text) => /^\d{1,7}$/.test(text) && Number(text) <= 1_000_000, "a whole number from 0 to 1000000"],
} satisfies Record<string, readonly [(text: string) => boolean, string]>;

/** `text`, when the flag's rule accepts it. */
function checked(flag: keyof typeof RULES, text: string): string {
  const [accepts, what] = RULES[flag];
  if (!accepts(text)) throw new UsageError(`--${flag} must be ${what}, not ${JSON.stringify(text)}`);
  return text;
}

/** A numeric flag's value, or `fallback` without one. */
function numeric(flag: keyof typeof RULES, text: string | undefined, fallback: number): number {
  return text === undefined ? fallback : Number(checked(flag, text));
}

function seed(text: string | undefined): number | string | undefined {
  if (text === "") throw new UsageError("--seed must not be empty");
  return text !== undefined && /^-?\d{1,15}$/.test(text) ? Number(text) : text;
}

/** What the command line asks for (see {@link HELP}). */
export type CliOptions = ReturnType<typeof parseCli>;

/**
 * Reads the command line.
 * @param argv - the arguments after the program name
 * @returns the options
 * @throws {UsageError} for an unknown flag, a missing or malformed value, or a stray argument
 */
export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const values = readArgs(argv, { options: OPTIONS, help: "--help", commands: ["verify"] });
  const keyFromEnv = values["api-key"] === undefined ? env[SERVER_VARIABLES.apiKey] || undefined : undefined;
  const keys = values["api-key"] ?? (keyFromEnv === undefined ? [] : [keyFromEnv]);
  if (values.host === "") throw new UsageError("--host must not be empty");
  if (values.data === "") throw new UsageError("--data must name a file");
  if (values.state === "") throw new UsageError("--state must name a file");
  const proxyTo = values["proxy-to"];
  if (proxyTo !== undefined && !(/^https?:\/\/[^/?#\s]+/i.test(proxyTo) && URL.canParse(proxyTo)))
    throw new UsageError(`--proxy-to must be an http(s) URL, not ${JSON.stringify(proxyTo)}`);
  if (proxyTo === undefined && (values.record !== undefined || values.fallback === true))
    throw new UsageError(`--${values.record !== undefined ? "record" : "fallback"} works with --proxy-to only`);
  if (values.record === "") throw new UsageError("--record must name a file");
  return {
    port: numeric("port", values.port, DEFAULT_PORT),
    host: values.host ?? (env[SERVER_VARIABLES.host] || DEFAULT_HOST),
    // Never empty: the development key without `--api-key` or its variable.
    apiKeys: keys.length > 0 ? keys : [DEFAULT_API_KEY],
    developmentKey: keys.length === 0,
    // The variable the key came from: it is then named, never printed.
    keyVariable: keyFromEnv === undefined ? undefined : SERVER_VARIABLES.apiKey,
    seed: seed(values.seed),
    dataFile: values.data,
    stateFile: values.state,
    demo: values["no-demo"] !== true,
    latencyMs: numeric("latency", values.latency, 0),
    // Whether the server sends due deliveries (`--no-webhooks`: record only).
    webhooks: values["no-webhooks"] !== true,
    webhookTimeScale: numeric("webhook-time-scale", values["webhook-time-scale"], 1),
    webhookTimeoutMs: numeric("webhook-timeout", values["webhook-timeout"], WEBHOOK_ATTEMPT_TIMEOUT_MS),
    allowedHosts: (values["allowed-host"] ?? []).map((name) => checked("allowed-host", name)),
    corsOrigins: (values["cors-origin"] ?? []).map((origin) => checked("cors-origin", origin)),
    maxTenants: numeric("max-tenants", values["max-tenants"], DEFAULT_MAX_TENANTS),
    proxyTo,
    recordFile: values.record,
    fallback: values.fallback === true,
    quiet: values.quiet === true,
    help: values.help === true,
    version: values.version === true,
  };
}
