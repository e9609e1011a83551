/**
 * The bridge from `node:http` to the mock. An API request takes the lean path: node's method,
 * path, raw headers and body bytes go straight to the pipeline as a light request, and its reply
 * is written with one `writeHead` and one `end` (no undici `Request`, `Headers` or `Response` on
 * the way). Everything else (the OpenAPI document, the control API) becomes a fetch `Request`
 * for the web-standard handler. No MSW, no stream adapters: the body is read once into one
 * buffer (capped at 1 MiB).
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import { formatTimestamp } from "../clock.js";
import type { LoggedRequest, MockOutcome } from "../core.js";
import { type BodyBytes, HOP_BY_HOP, headersOfRaw, type LightOutcome, type LightReply, type LightRequest, renderReply } from "../http/light.js";
import type { MaybePromise } from "../http/maybe-async.js";
import { withMethod } from "../http/method.js";
import { problem } from "../http/reply.js";
import { type Exposure, PUBLIC_CORS_HEADERS } from "./exposure.js";
import { lingerIfEarly } from "./linger.js";
import { type BodyRead, readBody } from "./read-body.js";

/** Answers one web-standard request: a response, or a dropped connection. Never rejects. */
export type OutcomeHandler = (request: Request) => Promise<MockOutcome>;

/** One answered request, as the CLI prints it. Never carries a header (so never the API key). */
export interface AnsweredRequest {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** The status sent; 0 when the connection was dropped (a fault, or the client went away). */
  readonly status: number;
  /** From the first byte read to the last byte written, in milliseconds. */
  readonly durationMs: number;
  /**
   * True for the web console's own traffic: its page, files and event stream, and the reads it
   * makes to refresh its views (marked with the `x-prospectkit-console` header). The CLI leaves
   * these out of its request lines, which stay about the user's own calls.
   */
  readonly console?: boolean;
}

/** The header the console sets on the reads that refresh its views. */
export const CONSOLE_READ_HEADER = "x-prospectkit-console";

/** Whether an answered request is the console's own traffic (see {@link AnsweredRequest.console}). */
function isConsoleTraffic(method: string, path: string, request: IncomingMessage): boolean {
  if (path === "/__mock/events" || path === "/__mock/console" || path.startsWith("/__mock/console/")) return true;
  return (method === "GET" || method === "HEAD") && request.headers[CONSOLE_READ_HEADER] !== undefined;
}

/** What the bridge needs. */
export interface NodeHandlerOptions {
  /** The server's origin, e.g. `http://127.0.0.1:4010`: request URLs are built on it. */
  readonly origin: string;
  /** The handler behind the server. */
  readonly handle: OutcomeHandler;
  /** The lean path: answers a light request, or returns null to send it through `handle` (see `ServerApp.answer`). */
  readonly answer?: ((request: LightRequest) => MaybePromise<LightOutcome> | null) | undefined;
  /** The answer to a request that fetch's `Request` refuses to represent (a method such as TRACE). */
  readonly unreadable: () => Response;
  /** A new request ID (the mock's seeded source), for answers the handler gives itself (a CORS preflight). */
  readonly newRequestId: () => string;
  /** Called once per request after it was answered (or dropped). */
  readonly onAnswered?: ((request: AnsweredRequest) => void) | undefined;
  /** Who may reach the server (the `Host` and `Origin` checks) and the CORS headers of each answer. */
  readonly exposure: Exposure;
  /** Logs a refused request in the mock's request log, as the pipeline logs every other. */
  readonly record: (entry: LoggedRequest) => void;
  /** The mock's clock, for the log's `receivedAt`. */
  readonly nowMs: () => number;
}

/**
 * Whether a request is a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`.
 * Preflights carry no API key (browsers never send one), so they are answered before authentication.
 */
function isPreflight(request: IncomingMessage): boolean {
  return request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
}

const ignore = () => undefined;

/** The CORS headers of the API's answers as node:http's flat [name, value, ...] list (the hot path builds nothing). */
const PUBLIC_CORS_LIST: readonly string[] = Object.entries(PUBLIC_CORS_HEADERS).flat();

/** The path of a request target without the query string (absolute-form targets included). */
function targetPath(target: string): string {
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  if (path.startsWith("/")) return path;
  try {
    return new URL(path).pathname;
  } catch {
    return path;
  }
}

/** The request URL on the server's origin; an absolute-form target (a proxy's) keeps only its path and query. */
function urlOf(origin: string, target: string): string {
  if (target.startsWith("/")) return origin + target;
  try {
    const url = new URL(target);
    // An authority-form target (`CONNECT host:443`) parses as an opaque URL: it names no path.
    return url.pathname.startsWith("/") ? origin + url.pathname + url.search : `${origin}/`;
  } catch {
    return `${origin}/`;
  }
}

/** A fetch `Headers` of a raw `[name, value, ...]` list, without hop-by-hop headers and values fetch refuses. */
export function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) {
    if (HOP_BY_HOP.has(raw[i]!.toLowerCase())) continue;
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A value Node accepted but fetch's Headers does not (obs-text): the handler never sees it.
    }
  }
  return headers;
}

/** The body as a fetch body: bytes, or a stream of the bytes read so far for a body over the cap. */
function bodyOf(method: string, read: Exclude<BodyRead, { kind: "aborted" }>): BodyInit | undefined {
  if (method === "GET" || method === "HEAD" || read.bytes === undefined) return undefined;
  return read.bytes as Uint8Array<ArrayBuffer>;
}

/** A path that a WHATWG URL keeps exactly as sent: no dot segment, escape, backslash or character it would encode. */
const PLAIN_PATH = /^\/[\w\-~!$&'()*+,;=:@/]*$/;

/** The URL path of a request target as a fetch `Request` would have it, without building a `URL` for a plain path. */
export function lightPath(origin: string, target: string): string {
  const query = target.indexOf("?");
  const path = query === -1 ? target : target.slice(0, query);
  return PLAIN_PATH.test(path) ? path : new URL(urlOf(origin, target)).pathname;
}

const EMPTY = new Uint8Array(0);

/** The light request of what node received (for a GET or HEAD, like fetch, no body). */
function lightRequestOf(method: string, path: string, raw: readonly string[], read: Exclude<BodyRead, { kind: "aborted" }>): LightRequest {
  const bytes: BodyBytes = read.kind === "over-limit" ? null : method === "GET" || method === "HEAD" ? EMPTY : (read.bytes ?? EMPTY);
  return { method, path, headers: headersOfRaw(raw), body: () => bytes };
}

/** Writes a light reply: the CORS headers, the reply's own, and the body's length (a HEAD reply states its GET body's). */
function writeReply(response: ServerResponse, reply: LightReply, cors: readonly string[], closeAfter: boolean): number {
  const headers = [...cors];
  for (const name of Object.keys(reply.headers)) headers.push(name, reply.headers[name]!);
  const body = reply.body ?? "";
  if (reply.headers["content-length"] === undefined) headers.push("content-length", String(Buffer.byteLength(body)));
  if (closeAfter) headers.push("connection", "close");
  response.writeHead(reply.status, headers);
  response.end(body);
  return reply.status;
}

/** Whether an answer is a stream of server-sent events (the console's live feed): written as it comes. */
function isEventStream(answer: Response): answer is Response & { body: ReadableStream<Uint8Array> } {
  return answer.body !== null && (answer.headers.get("content-type") ?? "").startsWith("text/event-stream");
}

/** Writes each chunk as it comes, until the stream ends or the client goes away (which cancels it). */
async function writeStream(response: ServerResponse, status: number, headers: string[], body: ReadableStream<Uint8Array>): Promise<number> {
  const reader = body.getReader();
  response.on("close", () => void reader.cancel().catch(ignore));
  response.writeHead(status, headers);
  response.flushHeaders();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || response.destroyed) break;
      response.write(value);
    }
  } catch {
    // The stream failed or was cancelled: the answer ends here.
  }
  response.end();
  return status;
}

async function writeOutcome(response: ServerResponse, outcome: MockOutcome, cors: readonly string[]): Promise<number> {
  if (outcome.kind === "network-error") {
    response.destroy();
    return 0;
  }
  const answer = outcome.response;
  // A flat [name, value, ...] list: node:http writes it as is, without building an object.
  const headers = [...cors];
  answer.headers.forEach((value, name) => {
    headers.push(name, value);
  });
  if (isEventStream(answer)) return writeStream(response, answer.status, headers, answer.body);
  // A string body lets node:http send the head and the body in one write.
  const body = await answer.text();
  // A HEAD answer states the length its GET body has (node:http sends no body for HEAD).
  if (!answer.headers.has("content-length")) headers.push("content-length", String(Buffer.byteLength(body)));
  response.writeHead(answer.status, headers);
  response.end(body);
  return answer.status;
}

/** Methods fetch's `Request` refuses to carry (forbidden methods); the mock still answers them. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * The fetch `Request` of what node received, or null when fetch cannot represent it. A method
 * fetch forbids becomes a body-less stand-in that names the real method (see `withMethod`): no
 * route serves such a method, so the body is never read, and the answer is the pipeline's own
 * 401 or 405 with `x-request-id`.
 * @param origin - the server's origin
 * @param method - the method as received
 * @param target - the request target as received
 * @param headers - the request headers
 * @param body - the body, if any
 */
export function toFetchRequest(origin: string, method: string, target: string, headers: Headers, body: BodyInit | undefined): Request | null {
  const url = urlOf(origin, target);
  try {
    if (FORBIDDEN_METHODS.has(method.toUpperCase())) return withMethod(new Request(url, { method: "GET", headers }), method);
    return new Request(url, { method, headers, ...(body !== undefined && { body }) });
  } catch {
    return null;
  }
}

/**
 * Creates the `request` listener of a `node:http` server.
 * @param options - the origin, the handler and the per-request hook
 * @returns a listener; it never throws and never leaves a request unanswered
 */
export function createNodeHandler(options: NodeHandlerOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const { origin, handle, answer, unreadable, newRequestId, onAnswered, exposure, record, nowMs } = options;
  const toRequest = (method: string, target: string, raw: readonly string[], body: BodyInit | undefined): Request | null =>
    toFetchRequest(origin, method, target, headersOf(raw), body);
  const serve = async (request: IncomingMessage, response: ServerResponse, started: number, path: string, cors: readonly string[]) => {
    const method = request.method ?? "GET";
    const target = request.url ?? "/";
    const pending = readBody(request);
    // Most requests (a GET) have no body: no need to wait a turn for it.
    const read = pending instanceof Promise ? await pending : pending;
    let status = 0;
    if (read.kind === "aborted") {
      response.destroy();
    } else {
      // Over the cap, the rest of the body is still arriving: the answer comes first, then a lingering
      // close (lingerIfEarly marks the answer `connection: close` itself).
      lingerIfEarly(request, response);
      const lean = answer?.(lightRequestOf(method, path, request.rawHeaders, read)) ?? null;
      if (lean !== null) {
        // Answered at once unless the request waits (an injected latency): written in the same turn.
        const outcome = lean instanceof Promise ? await lean : lean;
        if (outcome.kind === "network-error") response.destroy();
        else status = writeReply(response, outcome.reply, cors, false);
      } else {
        const fetchRequest = toRequest(method, target, request.rawHeaders, bodyOf(method, read));
        const outcome: MockOutcome = fetchRequest === null ? { kind: "response", response: unreadable() } : await handle(fetchRequest);
        status = await writeOutcome(response, outcome, cors);
      }
    }
    const printed = targetPath(target);
    onAnswered?.({
      method,
      path: printed,
      status,
      durationMs: performance.now() - started,
      ...(isConsoleTraffic(method, printed, request) && { console: true }),
    });
  };
  return (request, response) => {
    const started = onAnswered === undefined ? 0 : performance.now();
    request.on("error", ignore);
    response.on("error", ignore);
    const method = request.method ?? "GET";
    const target = request.url ?? "/";
    // The path as the router will see it (dot segments resolved), so the checks and the routes agree on where a request goes.
    const path = lightPath(origin, target);
    const callerOrigin = request.headers.origin;
    const refusal = exposure.refusal(path, request.headers.host, callerOrigin);
    if (refusal !== null) {
      // Nothing of the request is handed on: a foreign Host or Origin gets only this problem (and a
      // body still arriving is discarded after it, so that the client reads it).
      lingerIfEarly(request, response);
      const requestId = newRequestId();
      const reply = problem(requestId, refusal.code, refusal.detail);
      const status = writeReply(response, renderReply(reply, requestId, method), [], true);
      const durationMs = performance.now() - started;
      const receivedAt = formatTimestamp(nowMs());
      record({ requestId, method, path, operation: null, status, responseBody: reply.body, receivedAt, durationMs, tenantId: null });
      onAnswered?.({ method, path: targetPath(target), status, durationMs });
      return;
    }
    const corsHeaders = exposure.corsHeaders(path, callerOrigin);
    const cors = corsHeaders === PUBLIC_CORS_HEADERS ? PUBLIC_CORS_LIST : Object.entries(corsHeaders).flat();
    if (isPreflight(request)) {
      lingerIfEarly(request, response);
      response.writeHead(204, { ...exposure.preflightHeaders(path, callerOrigin), "content-length": "0", [REQUEST_ID_HEADER]: newRequestId() });
      response.end();
      onAnswered?.({ method: "OPTIONS", path: targetPath(target), status: 204, durationMs: performance.now() - started });
      return;
    }
    serve(request, response, started, path, cors).catch(() => {
      // Only a bug can get here (the handler never rejects): answer nothing rather than crash.
      response.destroy();
    });
  };
}
