/**
 * The one request and answer shape of the mock's handler. Every adapter hands the handler a
 * {@link MockRequest} and gets back a {@link MockResponse} (or `null`: drop the connection):
 * `api.fetch` and the MSW handlers convert a fetch `Request` and `Response` at their edge, the
 * Node server builds one from `node:http`'s request and writes the answer straight to the socket.
 * Any method token travels as received (`TRACE`, `CONNECT` included), which a fetch `Request`
 * could not carry.
 * @module
 */
import { MAX_BODY_BYTES } from "./body.js";

/** One request, as every adapter hands it to the handler. */
export interface MockRequest {
  /** The method as received. */
  readonly method: string;
  /** The URL path, percent-encoded, dot segments resolved (see {@link splitTarget}). */
  readonly path: string;
  /** The query string without `?` ("" when there is none). */
  readonly query: string;
  /** The request headers (hop-by-hop ones left out). */
  readonly headers: Headers;
  /**
   * The body's bytes, read on demand and at most once: `null` when it is larger than
   * {@link MAX_BODY_BYTES} (it was not, or not wholly, read). Rejects when the client went away
   * before it ended (or its stream failed): the request is then dropped, unanswered and unlogged.
   */
  body(): Promise<Uint8Array | null>;
}

/** One answer: status, headers (lower-case names) and body (`null` for none: a HEAD, a 204, a redirect). */
export interface MockResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | ReadableStream<Uint8Array> | null;
}

const ABSOLUTE = /^https?:\/\//i;
const NO_PATH = { path: "", query: "" } as const;

/** A path that a WHATWG URL keeps exactly as sent: no dot segment, escape, backslash or character it would encode. */
const PLAIN_PATH = /^\/[\w\-~!$&'()*+,;=:@/]*$/;

/**
 * The path and query of a request target or an absolute URL, the path as a WHATWG URL has it
 * (dot segments resolved, `%2e` included, so `/v0/../__mock/reset` is `/__mock/reset`): the one
 * place a request's path is read. A plain path is split without building a `URL`.
 * @param target - what the request line names (`/v0/x?y`, an absolute-form URL) or a fetch `Request`'s URL
 * @returns the path and the query (without `?`); the path of something that names none (`host:443`) is ""
 */
export function splitTarget(target: string): { readonly path: string; readonly query: string } {
  // An absolute URL (a fetch Request's, or an absolute-form target): its path starts after the authority.
  if (ABSOLUTE.test(target)) {
    const start = target.indexOf("/", target.indexOf("//") + 2);
    return start === -1 ? { path: "/", query: "" } : splitTarget(target.slice(start));
  }
  const question = target.indexOf("?");
  const hash = target.indexOf("#");
  const end = hash === -1 ? target.length : hash;
  const path = target.slice(0, question === -1 || question > end ? end : question);
  const query = question === -1 || question > end ? "" : target.slice(question + 1, end);
  if (PLAIN_PATH.test(path)) return { path, query };
  try {
    const url = new URL(target, "http://mock.invalid");
    // An authority-form target (`CONNECT host:443`) parses as an opaque URL: it names no path, so no route.
    return url.pathname.startsWith("/") ? { path: url.pathname, query: url.search.slice(1) } : NO_PATH;
  } catch {
    return NO_PATH;
  }
}

/** Reads a fetch body of at most {@link MAX_BODY_BYTES} without buffering more than that; `null` when larger. */
async function readCapped(request: Request): Promise<Uint8Array | null> {
  const declared = request.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > MAX_BODY_BYTES) return null;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The mock's request of a fetch `Request` (for `api.fetch`, `api.handle` and the MSW handlers).
 * @param request - a fetch request (its URL is already an absolute, normalised URL)
 */
export function fromFetchRequest(request: Request): MockRequest {
  const { path, query } = splitTarget(request.url);
  let body: Promise<Uint8Array | null> | undefined;
  return { method: request.method, path, query, headers: request.headers, body: () => (body ??= readCapped(request)) };
}

/**
 * The fetch `Response` of an answer (for `api.fetch`, `api.handle` and the MSW handlers).
 * @param response - the handler's answer
 */
export function toFetchResponse(response: MockResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers });
}
