import { createTransport, type Fetch, type Transport } from "./attempt.js";
import { ConfigurationError } from "./errors/prospectkit-error.js";
import { API_KEY_PATTERN } from "./headers.js";
import { createLog, type Hooks, type Log } from "./hooks.js";
import { API_KEY_HEADER, createRedactor, type Redactor } from "./redact.js";
import { VERSION } from "./version.js";

/** How a successful response is checked against its schema. */
export type ValidationMode = "strict" | "warn" | "off";

export type { Fetch };

/**
 * Headers to add to requests. A `null` or `undefined` value removes a default header (such as
 * `user-agent`). `x-api-key` and `content-type` are always the SDK's own (ofetch sets
 * `content-type: application/json` on a request with a JSON body).
 */
export type HeaderOptions = Record<string, string | null | undefined>;

/** Options that a single call may override. */
export interface RequestOptions {
  /** Cancels the call. Never switches the timeout off; an abort raises `APIUserAbortError` and is never retried. */
  signal?: AbortSignal;
  /** Time limit of each attempt, in ms. Default 60 000. */
  timeoutMs?: number;
  /** Time limit of the whole call, retries and waits included, in ms. Default: none. */
  totalTimeoutMs?: number;
  /** How many times a failed attempt is retried (connection errors, timeouts, 408, 429, 5xx). Default 2. */
  maxRetries?: number;
  /** Extra headers, merged over the client's. */
  headers?: HeaderOptions;
  /** Whether request bodies are checked before sending. Default `true`. Path parameters are always checked. */
  validateRequests?: boolean;
  /** How responses are checked: `"strict"` (default) throws, `"warn"` reports and returns the data, `"off"` skips. */
  validateResponses?: ValidationMode;
}

/** Options of `createClient`. Every field is optional; per-call options override them. */
export interface ClientOptions extends Omit<RequestOptions, "signal">, Hooks {
  /** The API key, sent as `x-api-key`. Default: the `PROSPECTKIT_API_KEY` environment variable. */
  apiKey?: string;
  /**
   * The API's host root, without `/v0` (a trailing slash is fine), e.g. `https://api.example.com`.
   * Default: the `PROSPECTKIT_BASE_URL` environment variable.
   */
  baseUrl?: string;
  /**
   * The `fetch` to use. Default: the global `fetch`, looked up at each call (not once here), so
   * MSW, nock or Playwright interception installed after the client was created still applies.
   */
  fetch?: Fetch;
}

/**
 * Everything one call runs with: the client's settings with the call's options merged in.
 * @internal
 */
export interface Settings extends Hooks {
  baseUrl: string;
  apiKey: string;
  /** Takes the key out of everything that enters an error, a log line or a hook. */
  redact: Redactor;
  /** ofetch over the injected `fetch`, or over `globalThis.fetch` as it is when called. */
  transport: Transport;
  timeoutMs: number;
  totalTimeoutMs: number;
  maxRetries: number;
  /** The request headers (ofetch adds `content-type` to a request with a JSON body). */
  headers: Record<string, string>;
  validateRequests: boolean;
  validateResponses: ValidationMode;
  log: Log | undefined;
  signal?: AbortSignal | undefined;
}

const DEFAULTS = {
  timeoutMs: 60_000,
  totalTimeoutMs: Number.POSITIVE_INFINITY,
  maxRetries: 2,
  validateRequests: true,
  validateResponses: "strict",
} as const;
const MAX_TIMER_MS = 2_147_483_647;

function env(name: string): string | undefined {
  try {
    return (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name] || undefined;
  } catch {
    return undefined; // Deno without --allow-env
  }
}

function fail(message: string): never {
  throw new ConfigurationError(message);
}

function checkNumber(name: string, value: number | undefined, min: number, max: number): void {
  if (value !== undefined && !(value >= min && value <= max && (name !== "maxRetries" || Number.isInteger(value)))) {
    fail(`${name} must be a ${name === "maxRetries" ? "whole number" : "number of ms"} from ${min} to ${max}`);
  }
}

function checkOptions(options: RequestOptions): void {
  checkNumber("timeoutMs", options.timeoutMs, 1, MAX_TIMER_MS);
  checkNumber("totalTimeoutMs", options.totalTimeoutMs, 1, Number.POSITIVE_INFINITY);
  checkNumber("maxRetries", options.maxRetries, 0, 100);
  const mode = options.validateResponses;
  if (mode !== undefined && mode !== "strict" && mode !== "warn" && mode !== "off") fail('validateResponses must be "strict", "warn" or "off"');
}

/**
 * Lower-cases names, drops `null`/`undefined` values and any `content-type` (ofetch sets the
 * JSON one), and sets the key last so it always wins.
 */
function mergeHeaders(base: Record<string, string>, extra: HeaderOptions | undefined, apiKey: string): Record<string, string> {
  const headers = { ...base };
  for (const name in extra) {
    const value = extra[name];
    const key = name.toLowerCase();
    if (value == null || key === "content-type") delete headers[key];
    else headers[key] = value;
  }
  headers[API_KEY_HEADER] = apiKey;
  try {
    new Headers(headers);
  } catch {
    fail(`headers must be valid HTTP header names and values`);
  }
  return headers;
}

/** `prospectkit/<version> <runtime>`, or `undefined` in a browser (which forbids setting it). */
function userAgent(): string | undefined {
  const runtime = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  return runtime?.startsWith("Mozilla/") ? undefined : `prospectkit/${VERSION}${runtime ? ` ${runtime}` : ""}`;
}

function resolveBaseUrl(value: string | undefined): string {
  let url: URL | undefined;
  try {
    url = new URL(value ?? fail("baseUrl is missing: pass { baseUrl } or set PROSPECTKIT_BASE_URL"));
  } catch (error) {
    if (error instanceof ConfigurationError) throw error;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
    fail("baseUrl must be an absolute http(s) URL without credentials, query or fragment");
  }
  const root = url.origin + url.pathname.replace(/\/+$/, "");
  if (/\/v0$/i.test(root)) fail("baseUrl must not include /v0: the SDK adds it");
  return root;
}

/**
 * Resolves `createClient` options once: environment fallbacks and checks, then the defaults
 * merged with the options by {@link mergeOptions}, so client and call options merge in one place.
 * @throws {ConfigurationError} for a missing or malformed key or base URL, or a bad option
 * @internal
 */
export function resolveSettings(options: ClientOptions): Settings {
  const apiKey = options.apiKey ?? env("PROSPECTKIT_API_KEY");
  if (!apiKey) fail("apiKey is missing: pass { apiKey } or set PROSPECTKIT_API_KEY");
  if (!API_KEY_PATTERN.test(apiKey)) fail("apiKey must consist of visible ASCII characters");
  const baseUrl = resolveBaseUrl(options.baseUrl ?? env("PROSPECTKIT_BASE_URL"));
  const injected = options.fetch;
  if (injected !== undefined && typeof injected !== "function") fail("fetch must be a function");
  if (!injected && typeof globalThis.fetch !== "function") fail("fetch is not available in this runtime: pass { fetch }");
  const agent = userAgent();
  const headers = mergeHeaders({ accept: "application/json", ...(agent && { "user-agent": agent }) }, undefined, apiKey);
  const defaults: Settings = {
    ...options,
    ...DEFAULTS,
    apiKey,
    redact: createRedactor(apiKey),
    baseUrl,
    transport: createTransport(injected, baseUrl),
    headers,
    log: createLog(options),
  };
  return mergeOptions(defaults, options);
}

/** The options a call may override: exactly those with a default. */
const OVERRIDABLE = /* @__PURE__ */ Object.keys(DEFAULTS) as (keyof typeof DEFAULTS)[];

/**
 * The one place where a call's options meet the client's settings: per-call values win, the
 * client's (already defaulted) fill the rest. Without per-call options the settings are reused
 * as they are, so the hot path allocates nothing.
 * @throws {ConfigurationError} for a bad per-call option
 * @internal
 */
export function mergeOptions(settings: Settings, options: RequestOptions | undefined): Settings {
  if (!options) return settings;
  checkOptions(options);
  const merged: Settings = { ...settings, signal: options.signal };
  for (const key of OVERRIDABLE) {
    if (options[key] !== undefined) (merged as unknown as Record<string, unknown>)[key] = options[key];
  }
  if (options.headers) merged.headers = mergeHeaders(settings.headers, options.headers, settings.apiKey);
  return merged;
}
