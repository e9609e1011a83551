/**
 * The request log: the latest requests the mock answered (or dropped), for assertions, each with
 * the tenant that made it. It keeps at most a limit (a mock that runs for days must not grow
 * without end). The API key is never recorded (no headers are), nor the query string (where a
 * key must never be sent).
 * @module
 */

import * as z from "zod/mini";
import { OPERATIONS, type OperationId } from "../../src/operations.js";
import { REDACTED } from "../../src/redact.js";
import { DateTime, OpaqueId } from "../../src/schemas/index.js";
import { canonicalJson } from "../lib/canonical-json.js";

/** One answered request, as JSON: never a header, so never the API key. */
export const LoggedRequestSchema = z.object({
  requestId: z.string(),
  method: z.string(),
  /** The URL path, without the query string. */
  path: z.string(),
  /** The operation the route matched, or null (404, 405, outside the API). */
  operation: z.nullable(z.enum(OPERATIONS)),
  /** The HTTP status answered; 0 when the connection was dropped (a network-error fault). */
  status: z.int(),
  /** The parsed JSON request body, or undefined when there was none or it was not JSON. */
  requestBody: z.optional(z.unknown()),
  /** The JSON response body (a malformed-body fault: the text sent), or undefined when dropped. */
  responseBody: z.optional(z.unknown()),
  /** When the request was received (the mock's clock). */
  receivedAt: DateTime,
  /** How long the mock took to answer, in milliseconds (real time, injected latency included). */
  durationMs: z.number(),
  /** The tenant of the request's API key; null when it had no known key. */
  tenantId: z.nullable(OpaqueId),
  /** The validating proxy (`--proxy-to`) only: what the request or the answer broke of the API's contract. */
  violations: z.optional(z.array(z.string())),
  /** The validating proxy only: who answered, the target or the mock (`--fallback`). */
  answeredBy: z.optional(z.enum(["target", "mock"])),
});

/**
 * One answered request, as `api.requests` and `GET /__mock/requests` list it: never a header, so
 * never the API key. test/sdk/type-names.test.ts proves it equals `LoggedRequestSchema`'s output.
 */
export interface LoggedRequest {
  /** The `x-request-id` the mock answered with (`req_…`). */
  requestId: string;
  /** The HTTP method. */
  method: string;
  /** The URL path, without the query string. */
  path: string;
  /** The operation the route matched, or null (404, 405, outside the API). */
  operation: OperationId | null;
  /** The HTTP status answered; 0 when the connection was dropped (a network-error fault). */
  status: number;
  /** The parsed JSON request body, or undefined when there was none or it was not JSON. */
  requestBody?: unknown;
  /** The JSON response body (a malformed-body fault: the text sent), or undefined when dropped. */
  responseBody?: unknown;
  /** When the request was received (the mock's clock, ISO 8601). */
  receivedAt: string;
  /** How long the mock took to answer, in milliseconds (real time, injected latency included). */
  durationMs: number;
  /** The tenant of the request's API key; null when it had no known key. */
  tenantId: string | null;
  /** The validating proxy (`--proxy-to`) only: what the request or the answer broke of the API's contract (schemas, status, headers). */
  violations?: string[] | undefined;
  /** The validating proxy only: who answered, the target or the mock (`--fallback`, when the target did not). */
  answeredBy?: "target" | "mock" | undefined;
}

/** How many answered requests a mock keeps by default. */
export const DEFAULT_RETAINED_REQUESTS = 10_000;

/** `api.requests`: the latest requests answered since creation or the last reset (at most the mock's `retainedRequests`), oldest first. */
export interface RequestLog {
  /** Every logged request, oldest first. */
  list(): LoggedRequest[];
  /** The latest logged request, or undefined. */
  last(): LoggedRequest | undefined;
  /** How many requests are logged. */
  readonly size: number;
  /** Forgets every logged request. */
  clear(): void;
}

/**
 * Whether `value` holds a secret in any string or object key, read from its canonical JSON (the
 * one walker of JSON values, without recursion): the secret as written, or JSON-escaped.
 */
function holdsSecret(value: unknown, secrets: readonly string[]): boolean {
  if (value === undefined) return false;
  const text = canonicalJson(value);
  return secrets.some((secret) => text.includes(secret) || text.includes(JSON.stringify(secret).slice(1, -1)));
}

/** The log as the core uses it: `api` for tests, the rest for the pipeline and the adapters. */
export interface RequestLogCore {
  readonly api: RequestLog;
  record(entry: LoggedRequest): void;
  /** The entries of one tenant, oldest first; `withUnowned` adds those no known key made. */
  ofTenant(tenantId: string, withUnowned: boolean): LoggedRequest[];
  /** Changes how many entries are kept (the oldest beyond it are dropped at once). */
  retain(limit: number): void;
}

/** Checks a `retainedRequests` value. */
export function checkRetainedRequests(limit: number): number {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new TypeError("the number of retained requests must be a whole number >= 1");
  return limit;
}

/**
 * Creates an empty request log. Entries are kept as answered, at most `limit` of them (older ones
 * are dropped in batches, so recording stays constant time); what the log hands out never
 * contains an API key: a body in which a client wrongly put a key (or that echoes one) is handed
 * out as `[redacted]`. The check runs when the log is read, which keeps the per-request path free of it.
 * @param secrets - the API keys the mock knows right now
 * @param limit - how many entries to keep
 */
export function createRequestLog(secrets: () => Iterable<string> = () => [], limit = DEFAULT_RETAINED_REQUESTS): RequestLogCore {
  checkRetainedRequests(limit);
  let entries: LoggedRequest[] = [];
  const kept = () => (entries.length > limit ? entries.slice(-limit) : entries);
  const clean = (entry: LoggedRequest | undefined): LoggedRequest | undefined => {
    const known = [...secrets()].filter((secret) => secret.length > 0);
    if (entry === undefined || known.length === 0) return entry;
    const request = holdsSecret(entry.requestBody, known);
    const response = holdsSecret(entry.responseBody, known);
    if (!request && !response) return entry;
    return { ...entry, ...(request && { requestBody: REDACTED }), ...(response && { responseBody: REDACTED }) };
  };
  return {
    api: {
      list: () => kept().map((entry) => clean(entry)!),
      last: () => clean(entries.at(-1)),
      get size() {
        return Math.min(entries.length, limit);
      },
      clear() {
        entries = [];
      },
    },
    record(entry) {
      entries.push(entry);
      // Up to twice the limit before trimming: one copy per `limit` requests instead of one per request.
      if (entries.length >= 2 * limit) entries = entries.slice(-limit);
    },
    ofTenant: (tenantId, withUnowned) =>
      kept()
        .filter((entry) => entry.tenantId === tenantId || (withUnowned && entry.tenantId === null))
        .map((entry) => clean(entry)!),
    retain(next) {
      limit = checkRetainedRequests(next);
      entries = kept();
    },
  };
}
