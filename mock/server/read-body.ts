/**
 * What the Node adapter reads of a request: its headers as a standard `Headers`, and its body
 * through the mock's one capped reader (`CappedBody`: a body declared larger than 1 MiB is not
 * read at all, a streamed one only until it passes the cap, then left paused).
 * @module
 */
import type { IncomingMessage } from "node:http";
import { CappedBody } from "../pipeline/request.js";

/** Hop-by-hop headers (RFC 9110, 7.6.1): about one connection only, so never handed on (neither to the handler nor by the proxy). */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
]);

/**
 * The `Headers` of a raw `[name, value, ...]` list (node's `rawHeaders`), without hop-by-hop ones
 * and values fetch refuses (obs-text that node accepts).
 * @param raw - the list
 */
export function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) {
    if (HOP_BY_HOP.has(raw[i]!.toLowerCase())) continue;
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {}
  }
  return headers;
}

/**
 * Whether the request announces a body (HTTP/1.1: a non-zero Content-Length or a Transfer-Encoding).
 * @param request - the incoming request
 */
export function announcesBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return (length !== undefined && length !== "0") || request.headers["transfer-encoding"] !== undefined;
}

/**
 * Reads a request body through {@link CappedBody}.
 * @param request - the incoming request; left paused when the body is over the cap
 * @returns the body (empty without one), or null when it is over the cap; rejects when the client went away first
 */
export async function readBody(request: IncomingMessage): Promise<Uint8Array | null> {
  const body = new CappedBody();
  if (!announcesBody(request)) return body.bytes();
  if (CappedBody.refuses(request.headers["content-length"])) return null;
  return new Promise((resolve, reject) => {
    // A promise settles once: what comes after (the `close` after `end`, the rest of a body over
    // the cap that a lingering close reads) changes nothing, and no listener has to be removed.
    let over = false;
    request.on("data", (chunk: Buffer) => {
      if (over || body.add(chunk)) return;
      over = true;
      request.pause();
      resolve(null);
    });
    request.on("end", () => resolve(body.bytes()));
    request.on("error", reject);
    request.on("close", () => request.complete || reject(new Error("the client went away before its body ended")));
  });
}
