/**
 * How the standalone server sends a webhook attempt: one `POST` over `node:http(s)` on a connection
 * of its own, closed when the attempt ends. Not Node's `fetch`: its pool reconnects after an abort
 * and keeps idle sockets, and it holds the abort chain weakly, so after a garbage collection a
 * timed-out attempt kept its connection (and the process) open. Here the signal destroys the request.
 * @module
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { VERSION } from "../../src/version.js";
import type { WebhookFetch } from "../webhooks/index.js";
import { headersOf } from "./read-body.js";

/** Statuses whose answer has no body (a `Response` refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/** The answer as a `Response` whose body streams from the socket; cancelling the body destroys the socket. */
function toResponse(response: IncomingMessage): Response {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) throw new TypeError(`invalid HTTP status ${status}`);
  response.on("error", () => undefined); // a body cut short surfaces through the stream or not at all
  const init = { status, statusText: response.statusMessage ?? "", headers: headersOf(response.rawHeaders) };
  if (!NULL_BODY.has(status)) return new Response(Readable.toWeb(response) as ReadableStream<Uint8Array>, init);
  response.resume();
  return new Response(null, init);
}

/**
 * Sends one webhook attempt over `node:http`/`node:https`: the request's method, headers and body,
 * on a connection used for nothing else (`connection: close`), redirects never followed. The
 * attempt's signal (`init.signal`, else `request.signal`) destroys the request, and with it the
 * socket, at once, before or after the answer's headers; so does cancelling the answer's body.
 * @param request - the attempt (an http or https URL)
 * @param init - the attempt's own abort signal
 * @returns the answer, its body streaming
 * @throws the signal's reason once it aborted; the socket's error (`ECONNREFUSED`, `ENOTFOUND`, a TLS code) otherwise
 */
export const sendOverHttp: WebhookFetch = async (request, init) => {
  const signal = init?.signal ?? request.signal;
  const url = new URL(request.url);
  const send = url.protocol === "https:" ? httpsRequest : url.protocol === "http:" ? httpRequest : undefined;
  if (send === undefined) throw new TypeError(`cannot send to a ${url.protocol} URL`);
  const body = new Uint8Array(await request.arrayBuffer());
  signal.throwIfAborted();
  const headers = { "user-agent": `prospectkit-mock/${VERSION}`, ...Object.fromEntries(request.headers), "content-length": body.byteLength };
  return new Promise<Response>((resolve, reject) => {
    const outgoing = send(url, { method: request.method, headers, agent: false });
    const abort = () => outgoing.destroy(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    outgoing.once("close", () => signal.removeEventListener("abort", abort));
    outgoing.on("error", reject);
    outgoing.once("response", (response) => {
      try {
        resolve(toResponse(response));
      } catch (error) {
        outgoing.destroy();
        reject(error);
      }
    });
    outgoing.end(body);
  });
};
