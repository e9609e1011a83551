/**
 * The command line of `prospectkit-mock`, read with `node:util`'s `parseArgs` (no dependency).
 * Every mistake becomes a {@link UsageError}: one line, exit code 2.
 * @module
 */
import { existsSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_API_KEY } from "../../core.js";
import { WEBHOOK_ATTEMPT_TIMEOUT_MS } from "../../webhooks/index.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../start.js";

/** A mistake on the command line or in its inputs: printed as one line, exit code 2. */
export class UsageError extends Error {
  /** @param message - one line saying what is wrong and, where useful, what to do */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** What the command line asks for. */
export interface CliOptions {
  readonly port: number;
  readonly host: string;
  /** Never empty: the development key when no `--api-key` is given. */
  readonly apiKeys: readonly string[];
  /** Whether the keys are the documented development key (no `--api-key`). */
  readonly developmentKey: boolean;
  readonly seed: number | string | undefined;
  readonly dataFile: string | undefined;
  readonly demo: boolean;
  readonly latencyMs: number;
  /** Whether the server sends due webhook deliveries (`--no-webhooks`: record only). */
  readonly webhooks: boolean;
  /** How many times faster than real time the retry schedule runs (`--webhook-time-scale`, default 1). */
  readonly webhookTimeScale: number;
  /** How long one delivery attempt may take, in milliseconds (`--webhook-timeout`, default 15,000). */
  readonly webhookTimeoutMs: number;
  /** Host names answered besides loopback names and IP addresses (`--allowed-host`, repeatable; `*`: every name). */
  readonly allowedHosts: readonly string[];
  /** Origins whose pages may call the controls cross-origin besides loopback ones (`--cors-origin`, repeatable; `*`: every origin). */
  readonly corsOrigins: readonly string[];
  readonly quiet: boolean;
  readonly help: boolean;
  readonly version: boolean;
}

const OPTIONS = {
  port: { type: "string", short: "p" },
  host: { type: "string" },
  "api-key": { type: "string", multiple: true },
  seed: { type: "string" },
  data: { type: "string" },
  // Declared on its own: parseArgs' allowNegative needs Node 22.4, and the CLI runs on Node 20.
  "no-demo": { type: "boolean" },
  latency: { type: "string" },
  "no-webhooks": { type: "boolean" },
  "webhook-time-scale": { type: "string" },
  "webhook-timeout": { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "cors-origin": { type: "string", multiple: true },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** The `--help` text. */
export const HELP = `Usage: prospectkit-mock [options]

Serves the prospectkit mock API over HTTP: stateful, seedable, with a control API under /__mock
and an OpenAPI document at /openapi.json.

Options:
  -p, --port PORT      port to listen on (default ${DEFAULT_PORT}; 0 picks a free port)
      --host HOST      interface to bind (default ${DEFAULT_HOST}, loopback only)
      --api-key KEY    accept this API key (repeatable; default the development key ${DEFAULT_API_KEY})
      --seed SEED      seed for generated IDs (a number or a string; default 0)
      --data FILE      load fixtures from a JSON file (validated at start)
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

/** The first sentence of a parseArgs message, which goes on to explain positional arguments. */
function firstSentence(message: string): string {
  return message
    .split("\n", 1)[0]!
    .replace(/\. .*$/, "")
    .replace(/\.$/, "");
}

function port(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65_535)
    throw new UsageError(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(text)}`);
  return Number(text);
}

function latency(text: string | undefined): number {
  if (text === undefined) return 0;
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) > 600_000)
    throw new UsageError(`--latency must be milliseconds from 0 to 600000, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** The longest attempt timeout (10 minutes): a receiver that takes longer is down. */
const MAX_ATTEMPT_TIMEOUT_MS = 600_000;

/** The largest time scale: 5 days of schedule in under a millisecond is already instant. */
const MAX_TIME_SCALE = 1e9;

function timeScale(text: string | undefined): number {
  if (text === undefined) return 1;
  if (!/^\d+(\.\d+)?$/.test(text) || !(Number(text) > 0) || Number(text) > MAX_TIME_SCALE) {
    throw new UsageError(`--webhook-time-scale must be a number above 0, up to 1000000000, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function attemptTimeout(text: string | undefined): number {
  if (text === undefined) return WEBHOOK_ATTEMPT_TIMEOUT_MS;
  if (!/^\d{1,9}$/.test(text) || !(Number(text) >= 1) || Number(text) > MAX_ATTEMPT_TIMEOUT_MS) {
    throw new UsageError(`--webhook-timeout must be whole milliseconds from 1 to ${MAX_ATTEMPT_TIMEOUT_MS}, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function seed(text: string | undefined): number | string | undefined {
  if (text === undefined) return undefined;
  if (text === "") throw new UsageError("--seed must not be empty");
  return /^-?\d{1,15}$/.test(text) ? Number(text) : text;
}

function allowedHosts(names: readonly string[]): readonly string[] {
  for (const name of names) {
    if (!/^(?:\*|\.?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/.test(name)) {
      throw new UsageError(`--allowed-host must be a host name such as mock or .example.com (or '*'), not ${JSON.stringify(name)}`);
    }
  }
  return names;
}

function corsOrigins(origins: readonly string[]): readonly string[] {
  for (const origin of origins) {
    if (origin !== "*" && !/^https?:\/\/[^/?#@\s]+\/?$/i.test(origin)) {
      throw new UsageError(`--cors-origin must be an origin such as https://app.example.com (or '*'), not ${JSON.stringify(origin)}`);
    }
  }
  return origins;
}

/**
 * Reads the command line.
 * @param argv - the arguments after the program name
 * @returns the options
 * @throws {UsageError} for an unknown flag, a missing or malformed value, or a stray argument
 */
export function parseCli(argv: readonly string[]): CliOptions {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true; allowPositionals: false }>>["values"];
  try {
    ({ values } = parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError(`${firstSentence(error instanceof Error ? error.message : String(error))} (see --help)`);
  }
  const keys = values["api-key"] ?? [];
  if (values.host === "") throw new UsageError("--host must not be empty");
  if (values.data === "") throw new UsageError("--data must name a file");
  return {
    port: port(values.port),
    host: values.host ?? DEFAULT_HOST,
    apiKeys: keys.length > 0 ? keys : [DEFAULT_API_KEY],
    developmentKey: keys.length === 0,
    seed: seed(values.seed),
    dataFile: values.data,
    demo: values["no-demo"] !== true,
    latencyMs: latency(values.latency),
    webhooks: values["no-webhooks"] !== true,
    webhookTimeScale: timeScale(values["webhook-time-scale"]),
    webhookTimeoutMs: attemptTimeout(values["webhook-timeout"]),
    allowedHosts: allowedHosts(values["allowed-host"] ?? []),
    corsOrigins: corsOrigins(values["cors-origin"] ?? []),
    quiet: values.quiet === true,
    help: values.help === true,
    version: values.version === true,
  };
}
