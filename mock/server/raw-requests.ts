/**
 * Requests node:http does not hand to its `request` listener, answered all the same on the bare
 * socket: `CONNECT` and a method its parser does not know (`TRACK`: a parser error that still
 * carries a whole head) go through the one handler (401 first, then 405 with `Allow`); a request
 * the parser refuses (a bad header byte, headers over 16 KiB, a timeout) gets the usual problem
 * rendering. Then the connection closes in stages.
 * @module
 */
import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import type { MockHandler } from "../pipeline/handler.js";
import { contentLength, problem, render } from "../pipeline/reply.js";
import { type MockResponse, splitTarget } from "../pipeline/request.js";
import { answeringByHand, discardedByHand, endByHand } from "./linger.js";
import { headersOf } from "./read-body.js";

/** RFC 9110 token characters: what a method may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REQUEST_LINE = /^(\S+) (\S+) HTTP\/1\.[01]$/;

/** The status and the sentence of each parser error, by node's error code. */
const CLIENT_ERRORS: Readonly<Record<string, readonly [status: number, detail: string]>> = {
  HPE_HEADER_OVERFLOW: [431, "The request headers are larger than the server accepts (16 KiB)."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "The request did not arrive in time."],
  ERR_HTTP_HEADERS_TIMEOUT: [408, "The request headers did not arrive in time."],
};
const MALFORMED: readonly [number, string] = [400, "The request is not valid HTTP/1.1 (a malformed request line, header or body framing)."];

/**
 * The method, target and raw header list of a request head, or null when it is not a whole, well-formed one.
 * @param packet - what the parser was given
 */
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

/**
 * A whole HTTP/1.1 response as text, with `content-length` and `connection: close`.
 * @param answer - the handler's answer (a stream is never one of these: written as empty)
 */
export function rawHttpResponse(answer: MockResponse): string {
  const body = typeof answer.body === "string" ? answer.body : "";
  const headers = { ...answer.headers, "content-length": answer.headers["content-length"] ?? contentLength(body), connection: "close" };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}\r\n${head}\r\n${body}`;
}

/**
 * The `connect` and `clientError` listeners of the server.
 * @param handler - the one handler
 * @param newRequestId - a new request ID, for a request the parser refused
 */
export function createRawAnswerer(handler: MockHandler, newRequestId: () => string) {
  const answer = (socket: Duplex, method: string, target: string, rawHeaders: readonly string[]) => {
    socket.on("error", () => undefined);
    answeringByHand(socket);
    const { path, query } = splitTarget(target);
    const request = { method, path, query, headers: headersOf(rawHeaders), body: () => Promise.resolve(new Uint8Array(0)) };
    handler(request).then(
      (response) => (response === null || !socket.writable ? socket.destroy() : endByHand(socket, rawHttpResponse(response))),
      () => socket.destroy(),
    );
  };
  return {
    connect: (request: IncomingMessage, socket: Duplex) => answer(socket, request.method ?? "CONNECT", request.url ?? "/", request.rawHeaders),
    clientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Duplex) {
      // A later chunk of a request already being answered: node's parser reports each one.
      if (discardedByHand(socket)) return;
      const head = error.code === "HPE_INVALID_METHOD" && error.rawPacket !== undefined ? parseRequestHead(error.rawPacket) : null;
      if (head !== null && socket.writable) return answer(socket, head.method, head.target, head.rawHeaders);
      if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy();
      const [status, detail] = (error.code !== undefined && CLIENT_ERRORS[error.code]) || MALFORMED;
      const requestId = newRequestId();
      const reply = problem(requestId, "invalid_request", detail, { status, title: STATUS_CODES[status] ?? "Bad request" });
      endByHand(socket, rawHttpResponse(render(reply, "GET", { [REQUEST_ID_HEADER]: requestId })));
    },
  };
}
