/**
 * What the Node adapter reads of a request: its headers as a standard `Headers` (hop-by-hop ones
 * and values fetch refuses left out), and its body with the mock's 1 MiB cap: a body declared
 * larger is not read at all, a streamed body only until it passes the cap.
 * @module
 */
import type { IncomingMessage } from "node:http";
import { MAX_BODY_BYTES } from "../pipeline/body.js";

/** Hop-by-hop headers (RFC 9110, 7.6.1): about one connection only, so not handed on. */
const HOP_BY_HOP: ReadonlySet<string> = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade"]);

/**
 * The `Headers` of a raw `[name, value, ...]` list (node's `rawHeaders`).
 * @param raw - the list
 */
export function headersOf(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) {
    if (HOP_BY_HOP.has(raw[i]!.toLowerCase())) continue;
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A value node accepted but fetch's Headers does not (obs-text): the handler never sees it.
    }
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
 * Whether the request declares a body larger than the cap in its Content-Length, so that it can be
 * refused before a single byte is read (and before `100 Continue` is sent).
 * @param request - the incoming request
 */
export function declaresTooLargeBody(request: IncomingMessage): boolean {
  const length = request.headers["content-length"];
  return length !== undefined && /^\d+$/.test(length) && Number(length) > MAX_BODY_BYTES;
}

const EMPTY = new Uint8Array(0);

/**
 * Reads a request body, never more than {@link MAX_BODY_BYTES} + one chunk.
 * @param request - the incoming request; left paused when the body is over the cap
 * @returns the body (empty without one), or null when it is over the cap; rejects when the client went away first
 */
export function readBody(request: IncomingMessage): Promise<Uint8Array | null> {
  if (!announcesBody(request)) return Promise.resolve(EMPTY);
  if (declaresTooLargeBody(request)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    // One settlement; events after it (the `close` that follows `end`, data after a pause) are
    // ignored, so no listener has to be removed: the request object goes with its answer.
    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };
    request.on("data", (chunk: Buffer) => {
      if (settled) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return;
      request.pause();
      settle(() => resolve(null));
    });
    request.on("end", () => settle(() => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))));
    request.on("error", (error) => settle(() => reject(error)));
    request.on("close", () => {
      if (!request.complete) settle(() => reject(new Error("the client went away before its body ended")));
    });
  });
}
