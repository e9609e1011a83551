/**
 * The request log: the latest requests the mock answered (or dropped), for assertions, each with
 * the tenant that made it. Each tenant's requests are a list of their own, bounded on their own (a
 * mock that runs for days must not grow without end, and a busy neighbour never pushes out your
 * entries); reading one tenant's list costs what its own entries cost, whatever the number of
 * tenants or keys. The API key is never recorded: not its header, nor the headers that carry
 * credentials (`authorization`, `cookie`); a header or query value that holds a key is handed out
 * as `[redacted]`, like a body.
 * @module
 */

import * as z from "zod/mini";
import { OPERATIONS } from "../../src/operation-table.js";
import { API_KEY_HEADER, holdsSecret, REDACTED } from "../../src/redact.js";
import { DateTime, OpaqueId } from "../../src/schemas/index.js";
import { canonicalJson } from "../lib/canonical-json.js";
import { utf8Length } from "../lib/utf8.js";
import { type Har, toHar } from "./har.js";

/** A 404's or 405's near miss as JSON (`NearMiss`, ./near-miss.ts): the route it most likely meant and what differed. */
const NearMissSchema = z.object({
  method: z.string(),
  path: z.string(),
  operation: z.optional(z.string()),
  differs: z.union([
    z.object({ kind: z.literal("method"), sent: z.string(), wanted: z.string() }),
    z.object({ kind: z.literal("segment"), index: z.int(), sent: z.string(), wanted: z.string() }),
  ]),
});

/** One answered request, as JSON: never the API key (nor a credential header). */
export const LoggedRequestSchema = z.object({
  /** The `x-request-id` the client received: the mock's (`req_…`), or a proxied target's own. */
  requestId: z.string(),
  /** The HTTP method. */
  method: z.string(),
  /** The URL path, without the query string. */
  path: z.string(),
  /** The operation the route matched, or null (404, 405, outside the API). */
  operation: z.nullable(z.enum(OPERATIONS)),
  /** The HTTP status answered; 0 when the connection was dropped (a network-error fault). */
  status: z.int(),
  /** The query parameters, when the URL had any (the last value of a repeated name). */
  query: z.optional(z.record(z.string(), z.string())),
  /** The request headers (lower-case names) but `x-api-key`, `authorization`, `proxy-authorization` and `cookie`. */
  headers: z.optional(z.record(z.string(), z.string())),
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
  /** A 404 or 405 only: the route the request most likely meant (one method or one path segment away), when one is. */
  nearMiss: z.optional(NearMissSchema),
});

/**
 * One answered request, as `api.requests` and `GET /__mock/requests` list it: never the API key
 * (no credential header is kept, and a value holding a key is `[redacted]`). Its type is its schema's output, under its own name. What an adapter attached
 * (`Exchange.set`: the validating proxy's `violations`, `answeredBy`, ...) stands beside these
 * fields, as that adapter documents it; the log never reads it.
 */
export interface LoggedRequest extends z.output<typeof LoggedRequestSchema> {}

/** Where a stored entry keeps what adapters attached to it (`Exchange.set`): a symbol, so never one of its fields. */
export const EXTENSIONS: unique symbol = Symbol("prospectkit.extensions");

/** An entry as the log stores it: with what adapters attached, by namespace, which the log never reads. */
export type StoredRequest = LoggedRequest & { readonly [EXTENSIONS]?: Readonly<Record<string, object>> };

/** An entry as it is handed out: what adapters attached, as fields of its own (the proxy's `violations`, ...). */
function withExtensions(entry: StoredRequest): LoggedRequest {
  const extensions = entry[EXTENSIONS];
  if (extensions === undefined) return entry;
  const { [EXTENSIONS]: _, ...own } = entry;
  return Object.assign(own, ...Object.values(extensions)) as LoggedRequest;
}

/** How many answered requests a mock keeps by default, per tenant. */
export const DEFAULT_RETAINED_REQUESTS = 10_000;

/** How much of a body the log keeps when it is longer (64 KiB): the proxy forwards bodies of any size, the log keeps a bounded prefix. */
export const LOGGED_BODY_LIMIT = 64 * 1024;

/**
 * A body as the log keeps it: the parsed value when its text is at most {@link LOGGED_BODY_LIMIT}
 * bytes, else its first bytes as text (never a character cut in half) and its full size.
 * @param text - the body as sent
 * @param parsed - the body parsed (JSON), or the text itself
 */
export function loggedBody(text: string, parsed: unknown): { readonly body: unknown; readonly size?: number } {
  if (text.length <= LOGGED_BODY_LIMIT / 3) return { body: parsed }; // at most 3 bytes a UTF-16 unit: short enough whatever it holds
  const size = utf8Length(text);
  if (size <= LOGGED_BODY_LIMIT) return { body: parsed };
  // Only the prefix is encoded (never the whole body: it may be 50 MiB); a decoder drops a character cut in half.
  const bytes = new TextEncoder().encode(text.slice(0, LOGGED_BODY_LIMIT)).subarray(0, LOGGED_BODY_LIMIT);
  return { body: new TextDecoder().decode(bytes).replace(/\uFFFD$/, ""), size };
}

/** `api.requests`: the latest requests answered since creation or the last reset (at most the mock's `retainedRequests` per tenant), oldest first. */
export interface RequestLog {
  /** Every logged request of every tenant, oldest first. */
  list(): LoggedRequest[];
  /** The latest logged request, or undefined. */
  last(): LoggedRequest | undefined;
  /** How many requests are logged. */
  readonly size: number;
  /** Forgets every logged request. */
  clear(): void;
  /**
   * Every logged request as an HTTP Archive (HAR 1.2), oldest first, for DevTools or msw's
   * `@mswjs/source` (`fromTraffic`): bodies and headers as `list()` hands them out, so no key.
   */
  toHAR(): Har;
}

/**
 * Whether `value` holds a secret in any string or object key, in any form (raw, escaped, encoded:
 * the SDK's one check, `holdsSecret`), read from its canonical JSON (the one walker of JSON values,
 * without recursion).
 */
function bodyHoldsSecret(value: unknown, secrets: readonly string[]): boolean {
  return value !== undefined && holdsSecret(canonicalJson(value), secrets);
}

/** A record of names and values with every value (or name) that holds a secret replaced by {@link REDACTED}. */
function redactValues(values: Readonly<Record<string, string>>, secrets: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [holdsSecret(name, secrets) ? REDACTED : name, holdsSecret(value, secrets) ? REDACTED : value]),
  );
}

/** The request headers a log entry never keeps: those that carry credentials. */
export const UNLOGGED_HEADERS: ReadonlySet<string> = new Set(["x-api-key", "authorization", "proxy-authorization", "cookie"]);

/**
 * The parts of a request's URL and headers a log entry keeps: its query parameters (when any) and
 * its headers but {@link UNLOGGED_HEADERS} (when any).
 * A key the mock knows is taken out when the entry is read, as from a body; a key it does not
 * know (behind the proxy, the target's) is taken out here, since no later check knows it. Only
 * then is each value checked now: the check decodes every form a key can take, too dear to run on
 * every header of every request.
 * @param query - the query string, without `?`
 * @param headers - the request headers
 * @param keyKnown - whether the request's key is one of the mock's (its caller has a tenant)
 */
export function loggedQueryAndHeaders(query: string, headers: Headers, keyKnown: boolean): Pick<LoggedRequest, "query" | "headers"> {
  const key = keyKnown ? null : headers.get(API_KEY_HEADER);
  const safe = (value: string) => (key && holdsSecret(value, [key]) ? REDACTED : value);
  const kept: Record<string, string> = {};
  let any = false;
  for (const [name, value] of headers) {
    if (UNLOGGED_HEADERS.has(name)) continue;
    kept[name] = safe(value);
    any = true;
  }
  return {
    ...(query !== "" && { query: Object.fromEntries([...new URLSearchParams(query)].map(([name, value]) => [safe(name), safe(value)])) }),
    ...(any && { headers: kept }),
  };
}

/** The secrets a log entry is checked against before it is handed out. */
export interface LogSecrets {
  /** Every key the mock knows (the whole log, in process). */
  all(): Iterable<string>;
  /** The keys one tenant's reader may not see in its entries: its own keys and the mock's start keys. */
  of(tenantId: string): Iterable<string>;
}

/** The log as the core uses it: `api` for tests, the rest for the pipeline and the adapters. */
export interface RequestLogCore {
  readonly api: RequestLog;
  record(entry: StoredRequest): void;
  /** The entries of one tenant, oldest first; `withUnowned` adds those no known key made. */
  ofTenant(tenantId: string, withUnowned: boolean): LoggedRequest[];
  /** An entry as its tenant reads it (a live view's copy of the request just logged). */
  viewOf(entry: LoggedRequest): LoggedRequest;
  /** Changes how many entries each tenant keeps (the oldest beyond it are dropped at once). */
  retain(limit: number): void;
  /** Forgets the entries of one tenant (a tenant's reset or deletion). */
  forgetTenant(tenantId: string): void;
}

/** Checks a `retainedRequests` value. */
export function checkRetainedRequests(limit: number): number {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new TypeError("the number of retained requests must be a whole number >= 1");
  return limit;
}

/**
 * One tenant's entries (or those no known key made), oldest first, each with its place in the
 * order of every entry (`seqs`, beside them: a read merges tenants by it), trimmed in batches.
 */
class Entries {
  list: LoggedRequest[] = [];
  seqs: number[] = [];
  add(entry: LoggedRequest, seq: number, limit: number): void {
    this.list.push(entry);
    this.seqs.push(seq);
    // Up to twice the limit before trimming: one copy per `limit` requests instead of one per request.
    if (this.list.length >= 2 * limit) this.trim(limit);
  }
  trim(limit: number): void {
    this.list = this.list.slice(-limit);
    this.seqs = this.seqs.slice(-limit);
  }
  kept(limit: number): LoggedRequest[] {
    return this.list.length > limit ? this.list.slice(-limit) : this.list;
  }
  /** The kept entries with their places in the order. */
  ordered(limit: number): (readonly [number, LoggedRequest])[] {
    const from = Math.max(0, this.list.length - limit);
    return this.list.slice(from).map((entry, i) => [this.seqs[from + i]!, entry] as const);
  }
}

/** The key of the entries no known key made. */
const UNOWNED = null;

/**
 * Creates an empty request log. Each tenant's entries (and those no known key made) are kept as
 * answered, at most `limit` of each (older ones are dropped in batches, so recording stays
 * constant time); what the log hands out never contains an API key: a body in which a client
 * wrongly put a key (or that echoes one) is handed out as `[redacted]`. The check runs when the
 * log is read, against the reader's keys and the start keys only, which keeps the per-request
 * path free of it and a read's cost independent of the other tenants.
 * @param secrets - the keys an entry is checked against
 * @param limit - how many entries to keep per tenant
 * @param origin - the origin the requests are sent to (the HAR export's URLs)
 */
export function createRequestLog(
  secrets: LogSecrets = { all: () => [], of: () => [] },
  limit = DEFAULT_RETAINED_REQUESTS,
  origin = "http://localhost",
): RequestLogCore {
  checkRetainedRequests(limit);
  let byTenant = new Map<string | null, Entries>();
  let recorded = 0;
  let latest: LoggedRequest | undefined;
  const clean = (stored: StoredRequest, known: readonly string[]): LoggedRequest => {
    const entry = withExtensions(stored);
    if (known.length === 0) return entry;
    const request = bodyHoldsSecret(entry.requestBody, known);
    const response = bodyHoldsSecret(entry.responseBody, known);
    const query = bodyHoldsSecret(entry.query, known);
    const headers = bodyHoldsSecret(entry.headers, known);
    if (!request && !response && !query && !headers) return entry;
    return {
      ...entry,
      ...(request && { requestBody: REDACTED }),
      ...(response && { responseBody: REDACTED }),
      ...(query && { query: redactValues(entry.query!, known) }),
      ...(headers && { headers: redactValues(entry.headers!, known) }),
    };
  };
  const known = (keys: Iterable<string>) => [...new Set(keys)].filter((secret) => secret.length > 0);
  /** The kept entries of some tenants, in the order they were recorded. */
  const inOrder = (lists: (Entries | undefined)[]) =>
    lists
      .flatMap((entries) => entries?.ordered(limit) ?? [])
      .sort((a, b) => a[0] - b[0])
      .map(([, entry]) => entry);
  const everyEntry = () => inOrder([...byTenant.values()]);
  const keptOf = (tenantId: string | null) => byTenant.get(tenantId)?.kept(limit) ?? [];
  return {
    api: {
      list() {
        const keys = known(secrets.all());
        return everyEntry().map((entry) => clean(entry, keys));
      },
      last() {
        if (latest === undefined) return undefined;
        return clean(latest, known(latest.tenantId === null ? secrets.all() : secrets.of(latest.tenantId)));
      },
      get size() {
        let size = 0;
        for (const entries of byTenant.values()) size += Math.min(entries.list.length, limit);
        return size;
      },
      clear() {
        byTenant = new Map();
        latest = undefined;
      },
      toHAR() {
        return toHar(this.list(), origin);
      },
    },
    record(entry) {
      latest = entry;
      let entries = byTenant.get(entry.tenantId);
      if (entries === undefined) byTenant.set(entry.tenantId, (entries = new Entries()));
      entries.add(entry, recorded++, limit);
    },
    ofTenant(tenantId, withUnowned) {
      const keys = known(secrets.of(tenantId));
      const merged = withUnowned ? inOrder([byTenant.get(tenantId), byTenant.get(UNOWNED)]) : keptOf(tenantId);
      return merged.map((entry) => clean(entry, keys));
    },
    viewOf: (entry) => clean(entry, known(entry.tenantId === null ? secrets.all() : secrets.of(entry.tenantId))),
    forgetTenant(tenantId) {
      byTenant.delete(tenantId);
      if (latest?.tenantId === tenantId) latest = everyEntry().at(-1);
    },
    retain(next) {
      limit = checkRetainedRequests(next);
      for (const entries of byTenant.values()) if (entries.list.length > limit) entries.trim(limit);
    },
  };
}
