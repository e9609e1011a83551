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

/**
 * A request body read up to {@link MAX_BODY_BYTES}, the one cap of every adapter: each feeds it
 * the chunks as its stream gives them (a fetch body's reader, node's request) and stops reading
 * once `add` says the body is over the cap. A body whose `Content-Length` says it is larger is
 * refused before a byte is read ({@link CappedBody.refuses}).
 */
export class CappedBody {
  #chunks: Uint8Array[] = [];
  #size = 0;

  /** Whether a body declared this long (its `Content-Length`) is over the cap. */
  static refuses(contentLength: string | null | undefined): boolean {
    return contentLength != null && /^\d+$/.test(contentLength) && Number(contentLength) > MAX_BODY_BYTES;
  }

  /** Adds the next chunk; false once the body is over the cap (stop reading: nothing more is kept). */
  add(chunk: Uint8Array): boolean {
    if (this.#size > MAX_BODY_BYTES) return false;
    this.#size += chunk.byteLength;
    if (this.#size > MAX_BODY_BYTES) {
      this.#chunks = [];
      return false;
    }
    this.#chunks.push(chunk);
    return true;
  }

  /** The body read, or null when it is over the cap. */
  bytes(): Uint8Array | null {
    if (this.#size > MAX_BODY_BYTES) return null;
    const chunks = this.#chunks;
    if (chunks.length === 1) return chunks[0]!;
    const bytes = new Uint8Array(this.#size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  }
}

/** Reads a fetch body through {@link CappedBody}. */
async function readFetchBody(request: Request): Promise<Uint8Array | null> {
  if (CappedBody.refuses(request.headers.get("content-length"))) return null;
  const body = new CappedBody();
  if (request.body === null) return body.bytes();
  const reader = request.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    if (body.add(next.value)) continue;
    await reader.cancel().catch(() => undefined);
    break;
  }
  return body.bytes();
}

/**
 * The mock's request of a fetch `Request` (for `api.fetch`, `api.handle` and the MSW handlers).
 * @param request - a fetch request (its URL is already an absolute, normalised URL)
 */
export function fromFetchRequest(request: Request): MockRequest {
  const { path, query } = splitTarget(request.url);
  let body: Promise<Uint8Array | null> | undefined;
  return { method: request.method, path, query, headers: request.headers, body: () => (body ??= readFetchBody(request)) };
}

/**
 * The fetch `Response` of an answer (for `api.fetch`, `api.handle` and the MSW handlers).
 * @param response - the handler's answer
 */
export function toFetchResponse(response: MockResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers });
}
