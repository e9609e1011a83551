/**
 * Requests node:http's parser refuses (a header byte HTTP does not allow, headers over 16 KiB, a
 * request that never finished arriving) never reach the mock; node would answer them with a bare
 * `400` that has no body and no `x-request-id`. They get the same problem+json answer as every
 * other error instead, then the connection is closed (the parser cannot go on after an error).
 * @module
 */
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import { PROBLEM_CONTENT_TYPE } from "../../src/schemas/index.js";
import { problem } from "../http/reply.js";
import { PUBLIC_CORS_HEADERS } from "./exposure.js";
import { endByHand } from "./linger.js";

/** The status and the sentence of each parser error, by node's error code. */
const CLIENT_ERRORS: Readonly<Record<string, readonly [status: number, detail: string]>> = {
  HPE_HEADER_OVERFLOW: [431, "The request headers are larger than the server accepts (16 KiB)."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "The request did not arrive in time."],
  ERR_HTTP_HEADERS_TIMEOUT: [408, "The request headers did not arrive in time."],
};
const MALFORMED: readonly [number, string] = [400, "The request is not valid HTTP/1.1 (a malformed request line, header or body framing)."];

/**
 * A whole HTTP/1.1 response as text, for answering on a bare socket (a parser error, a `CONNECT`):
 * the head with `content-length`, the CORS headers and `connection: close`, then the body.
 * @param status - the status
 * @param headers - the response's own headers
 * @param body - the body (empty for a HEAD answer)
 * @param cors - the CORS headers of the answer (default: any origin may read it)
 */
export function rawHttpResponse(
  status: number,
  headers: Iterable<readonly [string, string]>,
  body: string,
  cors: Readonly<Record<string, string>> = PUBLIC_CORS_HEADERS,
): string {
  const given = [...headers];
  const all: (readonly [string, string])[] = given.filter(([name]) => name !== "content-length" && name !== "connection");
  const declared = given.find(([name]) => name === "content-length");
  all.push(["content-length", declared?.[1] ?? String(Buffer.byteLength(body))], ...Object.entries(cors), ["connection", "close"]);
  const head = all.map(([name, value]) => `${name}: ${value}\r\n`).join("");
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n${head}\r\n${body}`;
}

/**
 * The raw HTTP answer to a request the parser refused.
 * @param code - node's error code, e.g. `HPE_INVALID_HEADER_TOKEN`
 * @param requestId - the answer's request ID
 * @returns the whole response, head and problem body, with `connection: close`
 */
export function clientErrorResponse(code: string | undefined, requestId: string): string {
  const [status, detail] = (code !== undefined && CLIENT_ERRORS[code]) || MALFORMED;
  const reply = problem(requestId, "invalid_request", detail, { status, title: STATUS_CODES[status] ?? "Bad request" });
  return rawHttpResponse(
    status,
    [
      ["content-type", PROBLEM_CONTENT_TYPE],
      [REQUEST_ID_HEADER, requestId],
    ],
    JSON.stringify(reply.body),
  );
}

/**
 * The `clientError` listener of the server.
 * @param error - the parser's (or the socket's) error
 * @param socket - the client's connection
 * @param requestId - the answer's request ID (from the mock's seeded source)
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, requestId: string): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  endByHand(socket, clientErrorResponse(error.code, requestId));
}
