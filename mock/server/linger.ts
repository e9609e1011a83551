/**
 * Early answers that reach the client. An answer given before the request's body was read (a 401
 * or 415 from the headers, a 413 over the 1 MiB cap), followed by a plain close while the body
 * still arrives, makes the kernel reset the connection: the client fails with `EPIPE` or
 * `ECONNRESET` instead of reading the answer. So the connection closes in stages, the lingering
 * close of RFC 9112, section 9.6: the answer says `connection: close` and is written whole, the
 * server half-closes, then reads and discards what the client still sends until it closes its
 * side, for at most {@link LINGER_MAX_BYTES} or {@link LINGER_MAX_MS}. A client still sending past
 * the byte bound is not reset at once (a reset can reach it before it has read the answer waiting
 * in its socket, and a client whose next write fails first never reads it): the server stops
 * reading, so TCP's flow control stalls the client's writes while the answer and the half-close
 * wait to be read, and cuts the connection {@link LINGER_CUTOFF_MS} later (or at the time bound,
 * whichever comes first). Nothing discarded is kept. A Node adapter's concern, kept out of the
 * handler.
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { announcesBody } from "./read-body.js";

/** The most body bytes read and discarded after an early answer before the client is cut off: 16 MiB. */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;

/** The longest the connection stays open after an early answer, in milliseconds: 5 s. */
export const LINGER_MAX_MS = 5_000;

/**
 * How long a client past the byte bound has to read its answer, in milliseconds, while the
 * server reads nothing more from it, before the connection is cut: 2 s (far more than an idle
 * client's event loop needs to read a few hundred bytes already in its socket, on a loaded machine too).
 */
export const LINGER_CUTOFF_MS = 2_000;

/** How much (bytes) and how long (ms) a lingering close reads, and how long past the byte bound it waits before cutting the client off. */
type LingerBounds = { readonly maxBytes: number; readonly maxMs: number; readonly cutoffMs: number };

const DEFAULT_BOUNDS: LingerBounds = { maxBytes: LINGER_MAX_BYTES, maxMs: LINGER_MAX_MS, cutoffMs: LINGER_CUTOFF_MS };

/** Connections past their byte bound, waiting to be cut. */
const cutting = new WeakSet<Duplex>();

/**
 * Past the byte bound: read nothing more (the client's writes stall), then cut the connection
 * after `cutoffMs`. `body` is the request whose rest was being discarded, paused too so that
 * node:http's parser stops reading the socket for it.
 */
function stopReadingThenCut(socket: Duplex, cutoffMs: number, body?: IncomingMessage): void {
  if (socket.destroyed || cutting.has(socket)) return;
  cutting.add(socket);
  body?.pause();
  socket.pause();
  const timer = setTimeout(() => socket.destroy(), cutoffMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

/** The close's second stage, once the answer is written: half-close, then close when the client has closed its side or the time is up. */
function closeInStages(socket: Duplex, maxMs: number): void {
  const cutOff = () => socket.destroy();
  const timer = setTimeout(cutOff, maxMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  // The client closed its side: everything it sent has been read, so closing resets nothing, once
  // the answer has left (a client that sent everything first can be done before it has).
  socket.once("end", () => (socket.writableFinished ? cutOff() : socket.once("finish", cutOff)));
  if (socket.writable) socket.end();
}

/**
 * Call before writing an answer: when the request's body is still arriving, the answer is marked
 * `connection: close` and, once written, the connection closes in stages. Otherwise nothing changes.
 * @param request - the request being answered
 * @param response - its response, head not yet written
 * @param bounds - how much and how long to read after the answer (default 16 MiB, 5 s)
 */
export function lingerIfEarly(request: IncomingMessage, response: ServerResponse, bounds: LingerBounds = DEFAULT_BOUNDS): void {
  if (request.complete || !announcesBody(request)) return;
  response.setHeader("connection", "close");
  const { socket } = request;
  // Each byte of the rest is counted and dropped. The body stays paused until the answer is
  // written; the listener also tells node:http that the body is being read, so its parser does
  // not drop it unread, where it could not be counted.
  let left = bounds.maxBytes;
  request.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) stopReadingThenCut(socket, bounds.cutoffMs, request);
  });
  request.pause();
  // node:http ends a `connection: close` answer with `socket.destroySoon()`, which resets a
  // connection whose client is still sending: on this socket (whose last answer this is), that
  // step becomes the lingering close.
  socket.destroySoon = () => {
    closeInStages(socket, bounds.maxMs);
    request.resume();
  };
}

/** Sockets answered by hand (a request the parser refused, a `CONNECT`), each with the `bytesRead` past which the client is cut off. */
const answeredByHand = new WeakMap<Duplex, number>();

/** node:http hands its listeners a `net.Socket` typed as a `Duplex`. */
const bytesRead = (socket: Duplex): number => (socket as Partial<Socket>).bytesRead ?? 0;

/**
 * Call when a request on a bare socket is about to be answered by hand: what else arrives on it
 * is that request's rest, discarded by {@link discardedByHand}, never answered again.
 * @param socket - the client's connection
 */
export function answeringByHand(socket: Duplex): void {
  if (!answeredByHand.has(socket)) answeredByHand.set(socket, Number.POSITIVE_INFINITY);
}

/**
 * Whether the socket's request is already (being) answered by hand. node:http's parser, once it
 * has refused a request, reports each later chunk as another client error: such a chunk is
 * discarded (the client cut off past the byte bound), not answered again.
 * @param socket - the client's connection
 */
export function discardedByHand(socket: Duplex): boolean {
  const limit = answeredByHand.get(socket);
  if (limit === undefined) return false;
  if (bytesRead(socket) > limit) stopReadingThenCut(socket, LINGER_CUTOFF_MS);
  return true;
}

/**
 * Writes a whole raw HTTP answer on a bare socket, then closes the connection in stages.
 * @param socket - the client's connection
 * @param answer - the whole response, head and body, saying `connection: close`
 */
export function endByHand(socket: Duplex, answer: string): void {
  answeredByHand.set(socket, bytesRead(socket) + LINGER_MAX_BYTES);
  socket.write(answer);
  closeInStages(socket, LINGER_MAX_MS);
  // A socket node:http handed over (a `CONNECT`) is read here; one its parser still reads reaches
  // discardedByHand through the `clientError` listener.
  socket.on("data", () => discardedByHand(socket));
  socket.resume();
}
