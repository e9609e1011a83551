/**
 * The Node adapter: `node:http`'s request becomes the mock's (its body read only when a route asks
 * for it), the one handler answers, and the answer is written with one `writeHead` and one `end`
 * (a stream, the console's feed, as it comes); an early answer lingers (linger.ts).
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { MockHandler } from "../pipeline/handler.js";
import { contentLength } from "../pipeline/reply.js";
import { CappedBody, type MockRequest, type MockResponse, splitTarget } from "../pipeline/request.js";
import { lingerIfEarly } from "./linger.js";
import { headersOf, readBody } from "./read-body.js";

const ignore = () => undefined;

/** The mock's request of what node received; a body announced with `Expect: 100-continue` is asked for when a route wants it. */
function mockRequestOf(request: IncomingMessage, response: ServerResponse): MockRequest {
  const { path, query } = splitTarget(request.url ?? "/");
  let body: Promise<Uint8Array | null> | undefined;
  const read = () => {
    // A body declared over the cap is refused before `100 Continue`: the client never sends it.
    if (request.headers.expect?.toLowerCase() === "100-continue" && !CappedBody.refuses(request.headers["content-length"])) response.writeContinue();
    return readBody(request);
  };
  return { method: request.method ?? "GET", path, query, headers: headersOf(request.rawHeaders), body: () => (body ??= read()) };
}

/** Writes each chunk of a stream as it comes, until it ends or the client goes away (which cancels it). */
async function writeStream(response: ServerResponse, stream: ReadableStream<Uint8Array>): Promise<void> {
  const reader = stream.getReader();
  response.on("close", () => void reader.cancel().catch(ignore));
  response.flushHeaders();
  for (let next = await reader.read(); !next.done && !response.destroyed; next = await reader.read()) response.write(next.value);
  response.end();
}

/** Writes an answer (`null`: drops the connection, as a network-error fault asks). */
function write(request: IncomingMessage, response: ServerResponse, answer: MockResponse | null): void | Promise<void> {
  if (answer === null) return void response.destroy();
  lingerIfEarly(request, response);
  const headers: string[] = [];
  for (const name of Object.keys(answer.headers)) headers.push(name, answer.headers[name]!);
  if (answer.body instanceof ReadableStream) {
    response.writeHead(answer.status, headers);
    return writeStream(response, answer.body).catch(ignore);
  }
  // A HEAD answer states the length its GET body has (node:http sends no body for HEAD).
  if (answer.headers["content-length"] === undefined) headers.push("content-length", contentLength(answer.body ?? ""));
  response.writeHead(answer.status, headers);
  response.end(answer.body ?? "");
}

/**
 * The `request` listener of a `node:http` server answering with the mock's handler.
 * @param handler - the handler (from the mock's core, with the server's routes and checks)
 */
export function nodeListener(handler: MockHandler): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    request.on("error", ignore);
    response.on("error", ignore);
    handler(mockRequestOf(request, response)).then(
      (answer) => write(request, response, answer),
      () => response.destroy(),
    );
  };
}
