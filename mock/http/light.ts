/**
 * The light request and reply the pipeline works on: a method, a path, a header lookup and the
 * body's bytes in; a status, headers and a body text out. No undici `Request` or `Response` is
 * built on the way: the standalone server hands node's request straight to the pipeline and
 * writes the reply straight to the socket, while `api.fetch` and the MSW handlers convert a
 * fetch `Request` into a light request and the reply into a `Response` (one pipeline, thin edges).
 * @module
 */
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import { PROBLEM_CONTENT_TYPE } from "../../src/schemas/index.js";
import { readCapped } from "./body.js";
import type { MaybePromise } from "./maybe-async.js";
import { methodOf } from "./method.js";
import type { Reply } from "./reply.js";

/** The part of fetch's `Headers` the pipeline reads: a lookup by lower-case name, duplicates joined with `, `. */
export interface HeaderLookup {
  get(name: string): string | null;
}

/** The body's bytes: `null` when the body is larger than the limit (it was not, or not wholly, read). */
export type BodyBytes = Uint8Array | null;

/** One request as the pipeline needs it. */
export interface LightRequest {
  /** The method as received (`CONNECT`, `TRACE` included: the pipeline answers every method). */
  readonly method: string;
  /** The URL path, percent-encoded as a WHATWG URL has it, without the query string. */
  readonly path: string;
  readonly headers: HeaderLookup;
  /** The body's bytes, read only when an operation needs them (a rejected read: "could not be read"). */
  body(): MaybePromise<BodyBytes>;
}

/** One answer: status, headers (lower-case names, `content-type` and `x-request-id` included) and the body text (null for a `HEAD`). */
export interface LightReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/** What the pipeline produced: a reply, or a dropped connection. */
export type LightOutcome = { readonly kind: "reply"; readonly reply: LightReply } | { readonly kind: "network-error" };

/**
 * Renders a reply with `x-request-id`, its content type and, for a `HEAD`, the `content-length`
 * the `GET` body has and no body (RFC 9110, 9.3.2).
 * @param reply - the pipeline's reply
 * @param requestId - the request's ID
 * @param method - the request's method
 */
export function renderReply(reply: Reply, requestId: string, method: string): LightReply {
  const text = reply.rawText ?? JSON.stringify(reply.body);
  const headers: Record<string, string> = {};
  if (reply.headers !== undefined) for (const name of Object.keys(reply.headers)) headers[name.toLowerCase()] = reply.headers[name]!;
  headers["content-type"] = reply.problem ? PROBLEM_CONTENT_TYPE : "application/json";
  headers[REQUEST_ID_HEADER] = requestId;
  if (method !== "HEAD") return { status: reply.status, headers, body: text };
  headers["content-length"] = String(new TextEncoder().encode(text).byteLength);
  return { status: reply.status, headers, body: null };
}

/**
 * A fetch `Response` of a light reply (for `api.fetch` and the MSW handlers).
 * @param reply - the reply
 */
export function toFetchResponse(reply: LightReply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

/** The path of a URL without building a `URL` when it is a plain origin + path (what `Request` gives: already normalised). */
function pathOfUrl(url: string): string {
  if (!/^https?:\/\//i.test(url)) return new URL(url).pathname;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start === -1) return "/";
  const query = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  const end = query === -1 ? hash : hash === -1 ? query : Math.min(query, hash);
  return end === -1 ? url.slice(start) : url.slice(start, end);
}

/**
 * The light request of a fetch `Request`: its real method (see `withMethod`), its path, its
 * headers, and its body read on demand with the 1 MiB cap.
 * @param request - a fetch request (its URL is already a normalised absolute URL)
 */
export function fromFetchRequest(request: Request): LightRequest {
  return {
    method: methodOf(request),
    path: pathOfUrl(request.url),
    headers: request.headers,
    body: () => readCapped(request),
  };
}

/** Hop-by-hop headers (RFC 9110, 7.6.1): about one connection only, so not passed on. */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// What fetch's `Headers` trims from both ends of a value (HTTP whitespace; `trim()` would also take NBSP).
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** HTTP whitespace: tab, line feed, carriage return, space. */
const isHttpWhitespace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** A value as fetch's `Headers` keeps it: HTTP whitespace taken from both ends (no copy when there is none). */
function trimmed(value: string): string {
  if (value === "" || (!isHttpWhitespace(value.charCodeAt(0)) && !isHttpWhitespace(value.charCodeAt(value.length - 1)))) return value;
  return value.replace(EDGE_WHITESPACE, "");
}

// What fetch's `Headers` refuses in a value (after trimming): NUL, CR, LF.
const BAD_VALUE = /[\0\r\n]/;

/**
 * A header lookup over a raw `[name, value, ...]` list (node's `rawHeaders`) that agrees with
 * fetch's `Headers` built from the same list: names compared case-insensitively, duplicates
 * joined with `, `, hop-by-hop headers and what `Headers` would refuse left out. Nothing is
 * copied up front: a lookup scans the list (a handful of headers; the pipeline asks for two or three).
 * @param raw - the raw list
 */
export function headersOfRaw(raw: readonly string[]): HeaderLookup {
  return {
    get(anyCase) {
      const name = anyCase.toLowerCase();
      if (HOP_BY_HOP.has(name)) return null;
      let found: string | null = null;
      for (let i = 0; i < raw.length; i += 2) {
        const candidate = raw[i]!;
        if (candidate.length !== name.length || (candidate !== name && candidate.toLowerCase() !== name) || !TOKEN.test(candidate)) continue;
        const value = trimmed(raw[i + 1]!);
        if (BAD_VALUE.test(value)) continue;
        found = found === null ? value : `${found}, ${value}`;
      }
      return found;
    },
  };
}
