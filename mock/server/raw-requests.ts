/**
 * Requests that node:http does not hand to its `request` listener, answered by the mock all the
 * same: `CONNECT` (node emits `connect` and, unanswered, drops the socket) and a method token
 * node's parser does not know (`TRACK`, `FOO`: a parser error). Each goes through the same handler
 * as every request (401 first, then 405 with `Allow` on a known path, always `x-request-id`), and
 * the answer is written on the socket, which is then closed.
 * @module
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import { PROBLEM_CONTENT_TYPE } from "../../src/schemas/index.js";
import { problem } from "../http/reply.js";
import { answerClientError, rawHttpResponse } from "./client-error.js";
import type { Exposure } from "./exposure.js";
import { answeringByHand, discardedByHand, endByHand } from "./linger.js";
import { headersOf, lightPath, type OutcomeHandler, toFetchRequest } from "./node-handler.js";

/** RFC 9110 token characters: what a method may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REQUEST_LINE = /^(\S+) (\S+) HTTP\/1\.[01]$/;

/** The method, target and raw header list of a request head, or null when it is not a whole, well-formed one. */
export function parseRequestHead(packet: Buffer): { method: string; target: string; rawHeaders: string[] } | null {
  const text = packet.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  if (end === -1) return null;
  const [line = "", ...fields] = text.slice(0, end).split("\r\n");
  const match = REQUEST_LINE.exec(line);
  if (match === null || !TOKEN.test(match[1]!)) return null;
  const rawHeaders: string[] = [];
  for (const field of fields) {
    const colon = field.indexOf(":");
    if (colon <= 0 || !TOKEN.test(field.slice(0, colon))) return null;
    rawHeaders.push(field.slice(0, colon), field.slice(colon + 1).trim());
  }
  return { method: match[1]!, target: match[2]!, rawHeaders };
}

/** What the raw answerer needs: the server's origin and the handler behind it. */
export interface RawAnswererOptions {
  readonly origin: string;
  readonly handle: OutcomeHandler;
  /** A new request ID (the mock's seeded source), for a request the parser refused. */
  readonly newRequestId: () => string;
  /** Who may reach the server: the same `Host` and `Origin` checks as every request. */
  readonly exposure: Exposure;
}

/** The first value of a header in a raw `[name, value, ...]` list. */
function rawHeader(rawHeaders: readonly string[], name: string): string | undefined {
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) return rawHeaders[i + 1];
  return undefined;
}

async function answerOnSocket(
  options: RawAnswererOptions,
  socket: Duplex,
  method: string,
  target: string,
  rawHeaders: readonly string[],
): Promise<void> {
  const path = lightPath(options.origin, target);
  const origin = rawHeader(rawHeaders, "origin");
  const refusal = options.exposure.refusal(path, rawHeader(rawHeaders, "host"), origin);
  if (refusal !== null) {
    const requestId = options.newRequestId();
    const reply = problem(requestId, refusal.code, refusal.detail);
    const headers: [string, string][] = [
      ["content-type", PROBLEM_CONTENT_TYPE],
      [REQUEST_ID_HEADER, requestId],
    ];
    if (socket.writable) endByHand(socket, rawHttpResponse(reply.status, headers, JSON.stringify(reply.body), {}));
    return;
  }
  const request = toFetchRequest(options.origin, method, target, headersOf(rawHeaders), undefined);
  const outcome = request === null ? null : await options.handle(request);
  if (outcome === null || outcome.kind === "network-error") {
    socket.destroy();
    return;
  }
  const { response } = outcome;
  const body = await response.text();
  if (socket.writable) endByHand(socket, rawHttpResponse(response.status, response.headers, body, options.exposure.corsHeaders(path, origin)));
}

/**
 * The `connect` and `clientError` listeners of the server.
 * @param options - the origin and the handler
 */
export function createRawAnswerer(options: RawAnswererOptions): {
  connect(request: IncomingMessage, socket: Duplex): void;
  clientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex): void;
} {
  return {
    connect(request, socket) {
      socket.on("error", () => undefined);
      answerOnSocket(options, socket, request.method ?? "CONNECT", request.url ?? "/", request.rawHeaders).catch(() => socket.destroy());
    },
    clientError(error, socket) {
      // A later chunk of a request already being answered: node's parser reports each one.
      if (discardedByHand(socket)) return;
      const head = error.code === "HPE_INVALID_METHOD" && error.rawPacket !== undefined ? parseRequestHead(error.rawPacket) : null;
      if (head === null || !socket.writable) {
        answerClientError(error, socket, options.newRequestId());
        return;
      }
      socket.on("error", () => undefined);
      answeringByHand(socket);
      answerOnSocket(options, socket, head.method, head.target, head.rawHeaders).catch(() => socket.destroy());
    },
  };
}
