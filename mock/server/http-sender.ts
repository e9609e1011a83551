/**
 * How the standalone server sends a webhook attempt: one `POST` over `node:http` (or
 * `node:https`) on a connection of its own, closed when the attempt ends. Node's `fetch` cannot
 * promise that: its connection pool reconnects after an aborted request and keeps the idle socket
 * for seconds, and the chain that carries an abort from a signal to its socket is held weakly, so
 * after a garbage collection a timed-out attempt kept its connection (and the process) open. Here
 * the attempt's own signal destroys the request directly, whatever has been collected.
 * @module
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { VERSION } from "../../src/version.js";
import type { WebhookFetch } from "../webhooks/index.js";

/** Statuses whose answer has no body (a `Response` refuses one). */
const NULL_BODY = new Set([204, 205, 304]);

/** The answer's headers as a `Headers`, leaving out any a `Headers` refuses. */
function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A value Headers cannot hold (node:http is more lenient): the excerpt never needs it.
    }
  }
  return headers;
}

/** The answer as a `Response` whose body streams from the socket; cancelling the body destroys the socket. */
function toResponse(response: IncomingMessage): Response {
  const status = response.statusCode ?? 0;
  if (status < 200 || status > 599) throw new TypeError(`invalid HTTP status ${status}`);
  response.on("error", () => undefined); // a body cut short surfaces through the stream or not at all
  const init = { status, statusText: response.statusMessage ?? "", headers: headersOf(response) };
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
  const headers: Record<string, string | number> = { "user-agent": `prospectkit-mock/${VERSION}` };
  for (const [name, value] of request.headers) headers[name] = value;
  headers["content-length"] = body.byteLength;
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
