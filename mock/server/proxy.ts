/**
 * The validating proxy (`prospectkit-mock --proxy-to URL`): a step of the server's handler, in the
 * API's part before the key check (the target checks the key), so the handler's `Host`/`Origin`
 * checks, CORS, faults, latency, the request log and the CLI lines apply as to every request. A
 * request for an operation of the API (the mock answers the others: 404, 405) is
 * forwarded to the target with the caller's `x-api-key` (never logged or stored: the log keeps
 * bodies with the key taken out), and each request and answer is checked against the API's
 * schemas by the same check `verify` uses (mock/verify/exchange.ts); what they break is logged as
 * the entry's `violations`. The entry's `requestId` is the target's `x-request-id` (what the client
 * received), the proxy's own beside it; a body longer than the log keeps is kept as a prefix with
 * its full size, so the log's memory stays bounded whatever flows through. With `fallback`, a
 * target that does not answer (refused, timed out) or has no such route (a 404 that is not a
 * problem body) is answered by the mock, marked as such: the step hands the request to the next
 * steps, the mock's own.
 * @module
 */
import * as z from "zod/mini";
import { API_KEY_HEADER, REQUEST_ID_HEADER } from "../../src/headers.js";
import { OPERATION_TABLE, type OperationId } from "../../src/operation-table.js";
import { createRedactor } from "../../src/redact.js";
import { PROBLEM_CONTENT_TYPE } from "../../src/schemas/index.js";
import { jsonOrText } from "../lib/canonical-json.js";
import { loggedBody } from "../observe/request-log.js";
import type { Exchange, Next, Step } from "../pipeline/exchange.js";
import { problem, tooLarge } from "../pipeline/reply.js";
import { answerViolations, requestViolations } from "../verify/exchange.js";
import { HOP_BY_HOP } from "./read-body.js";

/** One exchange the proxy saw, with every key taken out (what `--record` keeps). */
export interface SeenExchange {
  readonly operation: OperationId;
  readonly status: number;
  readonly requestBody: unknown;
  readonly responseBody: unknown;
  /** What the request or the answer broke of the API's contract, as logged (`body /customName invalid_type`). */
  readonly violations: readonly string[];
}

/** The namespace of what the proxy attaches to a request's log entry (`Exchange.set`). */
export const PROXY = "proxy";

/**
 * What the proxy attaches to a request's log entry (the log stores it and never reads it; the
 * server's request hook reads it back), as `GET /__mock/requests` shows it beside the entry's own
 * fields and the server's control document describes it.
 */
export const ProxyLogSchema = z.object({
  /** The validating proxy (`--proxy-to`) only: what the request or the answer broke of the API's contract (schemas, status, headers). */
  violations: z.optional(z.array(z.string())),
  /** The validating proxy only: who answered, the target or the mock (`--fallback`). */
  answeredBy: z.optional(z.enum(["target", "mock"])),
  /** The validating proxy only: the ID the proxy gave the request, when the target answered with its own `x-request-id`. */
  proxyRequestId: z.optional(z.string()),
  /** The validating proxy only: the full size in bytes of each body longer than the log keeps (64 KiB); that body's field holds its first bytes as text. */
  truncated: z.optional(z.object({ requestBody: z.optional(z.int()), responseBody: z.optional(z.int()) })),
});

/** What the proxy attaches to a request's log entry. */
export type ProxyLogFields = z.output<typeof ProxyLogSchema>;

/** How the proxy works. */
export interface ProxyOptions {
  /** The deployment to forward to (its base URL, without `/v0`). */
  readonly target: string;
  /** Answer from the mock when the target does not answer or has no such route. */
  readonly fallback?: boolean;
  /** Sees each exchange the target answered (the recording). */
  readonly onExchange?: (exchange: SeenExchange) => void;
  /** Each forwarded request gives up after this many milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Sends the forwarded requests (default the global `fetch`). */
  readonly fetch?: typeof fetch;
}

/** The request headers forwarded: what the API reads, nothing of the caller's browser (cookies, origin, referer). */
const FORWARDED = [API_KEY_HEADER, "content-type", "content-encoding", "accept", "accept-language", "user-agent"];

/** The answer headers not passed back: the connection's own (hop-by-hop), what the proxy's rendering sets again, and cookies. */
const DROPPED = new Set([...HOP_BY_HOP, "content-length", "content-encoding", "set-cookie"]);

/** A body as the proxy reads it: JSON, else its text; none when empty. */
const parseJson = (text: string): unknown => (text === "" ? undefined : jsonOrText(text));

/**
 * The body of an answer as bytes, each chunk copied into one buffer as it arrives (sized by the
 * answer's `content-length`, else grown by doubling): no network chunk is held once copied, so a
 * 50 MiB answer never has its 50 MiB of read buffers alive at once, memory a process's allocator
 * would keep afterwards (the proxy's resident memory would grow with every large answer).
 */
async function readBytes(response: Response): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array();
  const declared = Number(response.headers.get("content-length"));
  let buffer = new Uint8Array(Number.isSafeInteger(declared) && declared > 0 ? declared : 64 * 1024);
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (size + chunk.length > buffer.length) {
      const grown = new Uint8Array(Math.max(buffer.length * 2, size + chunk.length));
      grown.set(buffer.subarray(0, size));
      buffer = grown;
    }
    buffer.set(chunk, size);
    size += chunk.length;
  }
  return buffer.subarray(0, size);
}

/** A target that has no such route: a 404 that is not the API's problem body (a gateway's or a framework's "Cannot GET"). */
const isMissingRoute = (status: number, headers: Headers) =>
  status === 404 && headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() !== PROBLEM_CONTENT_TYPE;

/** The mock answers: the request goes on to the mock's own steps, its entry marked as the mock's. */
function fallBack(x: Exchange, next: Next) {
  x.set(PROXY, { answeredBy: "mock" } satisfies ProxyLogFields);
  return next(x);
}

/**
 * The proxy's step.
 * @param options - the target, the fallback, the recording
 * @returns the step, for the API's part of the server's handler
 */
export function proxyStep(options: ProxyOptions): Step {
  const { target, fallback = false, onExchange, timeoutMs = 30_000 } = options;
  const send = options.fetch ?? fetch;
  const base = target.replace(/\/+$/, "");
  const rows = new Map(OPERATION_TABLE.map((row) => [row.name, row]));
  return async (x, next) => {
    const row = x.route?.operation === undefined ? undefined : rows.get(x.route.operation);
    if (row === undefined) return next(x);
    const { request } = x;
    const bytes = row.method === "GET" ? new Uint8Array() : await x.bytes();
    if (bytes === undefined) return;
    if (bytes === null) return void (x.reply = tooLarge(x.requestId));
    const key = request.headers.get(API_KEY_HEADER);
    const redactor = key === null ? undefined : createRedactor(key);
    const clean = <T>(value: T): T => (redactor === undefined ? value : redactor.json(value));
    const requestText = new TextDecoder().decode(bytes);
    const requestBody = parseJson(requestText);
    const headers = new Headers();
    for (const name of FORWARDED) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    let response: Response;
    let received: Uint8Array;
    try {
      response = await send(`${base}${request.path}${request.query === "" ? "" : `?${request.query}`}`, {
        method: request.method,
        headers,
        ...(request.method !== "GET" && request.method !== "HEAD" && { body: bytes as Uint8Array<ArrayBuffer> }),
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      received = await readBytes(response);
    } catch (error) {
      if (fallback) return fallBack(x, next);
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      return void (x.reply = problem(x.requestId, "target_unreachable", `The proxy target ${base} did not answer (${cause}).`));
    }
    if (fallback && isMissingRoute(response.status, response.headers)) return fallBack(x, next);
    const text = new TextDecoder().decode(received);
    const responseBody = parseJson(text);
    const violations = [
      ...(row.method === "GET" ? [] : requestViolations(row.name, requestBody)),
      // A HEAD answer is GET's without its body: its status and headers are checked, not its (empty) body.
      ...answerViolations(
        row.name,
        { status: response.status, headers: response.headers, body: responseBody, head: request.method === "HEAD" },
        requestBody,
      ),
      ...(redactor?.holds(text) ? ["the answer carries the API key sent"] : []),
    ];
    // A violation may quote what the target sent (a header's value, a property's name).
    const shownViolations = clean(violations);
    onExchange?.({
      operation: row.name,
      status: response.status,
      requestBody: clean(requestBody),
      responseBody: clean(responseBody),
      violations: shownViolations,
    });
    const passed: Record<string, string> = {};
    for (const [name, value] of response.headers) if (!DROPPED.has(name)) passed[name] = value;
    const sent = loggedBody(requestText, requestBody);
    const answered = loggedBody(text, responseBody);
    const seenId = response.headers.get(REQUEST_ID_HEADER);
    // The bytes as the target sent them, passed on as they are (never encoded again from the text).
    passed["content-length"] = String(received.length);
    // The bodies the log keeps: the request's as it was sent, the answer's beside the stream that carries it (rendering reads the stream).
    x.body = x.sent = clean(sent.body);
    x.reply = {
      status: response.status,
      body: clean(answered.body),
      stream: new ReadableStream<Uint8Array>({
        start(controller) {
          if (received.length > 0) controller.enqueue(received);
          controller.close();
        },
      }),
      headers: passed,
    };
    const fields: ProxyLogFields = {
      violations: shownViolations,
      answeredBy: "target",
      // The ID the client received: the target's, the proxy's own beside it.
      ...(seenId !== null && seenId !== x.requestId && { proxyRequestId: x.requestId }),
      ...((sent.size !== undefined || answered.size !== undefined) && {
        truncated: {
          ...(sent.size !== undefined && { requestBody: sent.size }),
          ...(answered.size !== undefined && { responseBody: answered.size }),
        },
      }),
    };
    x.set(PROXY, fields);
    if (seenId !== null) x.requestId = seenId;
  };
}
