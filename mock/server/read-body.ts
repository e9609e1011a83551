/**
 * Reading a request body from `node:http` with the mock's 1 MiB cap: a body declared larger is
 * not read at all, a streamed body is read only until it passes the cap, and a client that
 * disconnects midway is noticed instead of crashing anything.
 * @module
 */
import type { IncomingMessage } from "node:http";
import { MAX_BODY_BYTES } from "../core.js";
import type { MaybePromise } from "../http/maybe-async.js";

/** What came of reading a request body. */
export type BodyRead =
  /** The whole body (`undefined` when there was none). */
  | { readonly kind: "complete"; readonly bytes: Uint8Array | undefined }
  /** Larger than the cap: `bytes` holds what was read (more than the cap); the rest stays unread. */
  | { readonly kind: "over-limit"; readonly bytes: Uint8Array | undefined }
  /** The client went away (or the stream failed) before the body ended. */
  | { readonly kind: "aborted" };

const NO_BODY: BodyRead = { kind: "complete", bytes: undefined };
const DECLARED_TOO_LARGE: BodyRead = { kind: "over-limit", bytes: undefined };

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

/**
 * Reads a request body, never more than {@link MAX_BODY_BYTES} + one chunk.
 * @param request - the incoming request; left paused when the body is over the cap
 * @returns the body, the part read of a body over the cap, or `aborted`
 */
export function readBody(request: IncomingMessage): MaybePromise<BodyRead> {
  if (!announcesBody(request)) return NO_BODY;
  if (declaresTooLargeBody(request)) return DECLARED_TOO_LARGE;
  return new Promise((resolve) => {
    // One settlement; events after it (the `close` that follows `end`, data after a pause) are
    // ignored, so no listener has to be removed: the request object is dropped with its answer.
    let settled = false;
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    const bytes = () => (more === undefined ? first : Buffer.concat(more, size));
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    request.on("data", (chunk: Buffer) => {
      if (settled) return;
      if (first === undefined) first = chunk;
      else (more ??= [first]).push(chunk);
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return;
      request.pause();
      settle({ kind: "over-limit", bytes: bytes() });
    });
    request.on("end", () => settle({ kind: "complete", bytes: bytes() }));
    request.on("error", () => settle({ kind: "aborted" }));
    request.on("close", () => {
      if (!request.complete) settle({ kind: "aborted" });
    });
  });
}
