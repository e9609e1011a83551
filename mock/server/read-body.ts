/**
 * What the Node adapter reads of a request: its headers as a standard `Headers`, and its body
 * with the mock's 1 MiB cap (a body declared larger is not read at all, a streamed one only until
 * it passes the cap).
 * @module
 */
import type { IncomingMessage } from "node:http";
import { MAX_BODY_BYTES } from "../pipeline/body.js";

/** Hop-by-hop headers (RFC 9110, 7.6.1): about one connection only, so not handed on. */
const HOP_BY_HOP: ReadonlySet<string> = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);

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
 * Whether the request's Content-Length is over the cap, so that it is refused before a byte is
 * read (and before `100 Continue`).
 * @param request - the incoming request
 */
export function declaresTooLargeBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return length !== undefined && /^\d+$/.test(length) && Number(length) > MAX_BODY_BYTES;
}

/**
 * Reads a request body, never more than {@link MAX_BODY_BYTES} + one chunk.
 * @param request - the incoming request; left paused when the body is over the cap
 * @returns the body (empty without one), or null when it is over the cap; rejects when the client went away first
 */
export async function readBody(request: IncomingMessage): Promise<Uint8Array | null> {
  if (!announcesBody(request)) return new Uint8Array(0);
  if (declaresTooLargeBody(request)) return null;
  return new Promise((resolve, reject) => {
    // A promise settles once: what comes after (the `close` after `end`, the rest of a body over
    // the cap that a lingering close reads) changes nothing, and no listener has to be removed.
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      if (size > MAX_BODY_BYTES) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return;
      request.pause();
      resolve(null);
    });
    request.on("end", () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    request.on("error", reject);
    request.on("close", () => request.complete || reject(new Error("the client went away before its body ended")));
  });
}
