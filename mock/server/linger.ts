/**
 * Early answers that reach the client. The server may answer before it has read a request's body
 * (a 401 or a 415 decided from the headers, a 413 for a body over the 1 MiB cap): closing the
 * connection right after such an answer, with the rest of the body still arriving, makes the
 * kernel reset it, and a client still writing its body then fails with `EPIPE` or `ECONNRESET`
 * instead of reading the answer. So the connection closes in stages, the lingering close of
 * RFC 9112, section 9.6: the answer says `connection: close` and is written whole, the server
 * half-closes (the client reads the answer, then end of stream), then reads and discards what the
 * client still sends until the client closes its side, for at most {@link LINGER_MAX_BYTES} or
 * {@link LINGER_MAX_MS}, whichever comes first; a client still sending then is cut off. Nothing
 * discarded is kept, so memory stays flat whatever a client sends.
 *
 * A node adapter's concern (it needs the `IncomingMessage` and its socket), kept out of the
 * handler behind it.
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

/** How long and how much a lingering close reads before cutting the client off. */
export interface LingerBounds {
  /** The most body bytes discarded (default {@link LINGER_MAX_BYTES}). */
  readonly maxBytes: number;
  /** The longest wait for the client to close its side, in milliseconds (default {@link LINGER_MAX_MS}). */
  readonly maxMs: number;
}

const DEFAULT_BOUNDS: LingerBounds = { maxBytes: LINGER_MAX_BYTES, maxMs: LINGER_MAX_MS };

/**
 * The second stage of the close, once the answer is written: half-close (the client reads the
 * answer, then end of stream), and close when the client closes its side or the time is up.
 */
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
 * Call before writing an answer. When the request's body is still arriving (the answer is
 * early), the answer is marked `connection: close`, and once it is written the connection closes
 * in stages (see the module documentation). Otherwise nothing changes.
 * @param request - the request being answered
 * @param response - its response, head not yet written
 * @param bounds - how much and how long to read after the answer (default 16 MiB, 5 s)
 */
export function lingerIfEarly(request: IncomingMessage, response: ServerResponse, bounds: LingerBounds = DEFAULT_BOUNDS): void {
  if (request.complete || !announcesBody(request)) return;
  response.setHeader("connection", "close");
  const { socket } = request;
  // Each byte of the rest is counted and dropped. The body stays paused until the answer is
  // written (the client waits on TCP meanwhile); the listener also tells node:http that the body
  // is being read, so it does not drop it unread in its parser, where it could not be counted.
  let left = bounds.maxBytes;
  request.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) socket.destroy();
  });
  request.pause();
  // node:http ends a `connection: close` answer with `socket.destroySoon()`: end, then destroy as
  // soon as the answer is flushed, which resets a connection whose client is still sending. On
  // this socket, that last step becomes the lingering close. (The answer being the connection's
  // last, nothing else is ever written on it.)
  socket.destroySoon = () => {
    closeInStages(socket, bounds.maxMs);
    request.resume();
  };
}

/**
 * Sockets answered by hand (a request node:http's parser refused, a `CONNECT`), each with the
 * `bytesRead` past which the client is cut off (infinite while the answer is being prepared).
 */
const answeredByHand = new WeakMap<Duplex, number>();

/** The bytes a connection has read (node:http hands its listeners a `net.Socket` typed as a `Duplex`). */
const bytesRead = (socket: Duplex): number => (socket as Partial<Socket>).bytesRead ?? 0;

/**
 * Call when a request on a bare socket is about to be answered by hand: what else arrives on the
 * socket is that request's rest, to be discarded by {@link discardedByHand}, never answered again.
 * @param socket - the client's connection
 */
export function answeringByHand(socket: Duplex): void {
  if (!answeredByHand.has(socket)) answeredByHand.set(socket, Number.POSITIVE_INFINITY);
}

/**
 * Whether the socket's request is already answered (or being answered) by hand. node:http's parser,
 * once it has refused a request, reports each later chunk of it as another client error: such a
 * chunk is discarded (and the client cut off past the byte bound) rather than answered again.
 * @param socket - the client's connection
 */
export function discardedByHand(socket: Duplex): boolean {
  const limit = answeredByHand.get(socket);
  if (limit === undefined) return false;
  if (bytesRead(socket) > limit) socket.destroy();
  return true;
}

/**
 * Writes a whole raw HTTP answer on a bare socket, then closes the connection in stages, reading
 * and discarding what the client still sends (see the module documentation).
 * @param socket - the client's connection
 * @param answer - the whole response, head and body, saying `connection: close`
 * @param bounds - how much and how long to read after the answer (default 16 MiB, 5 s)
 */
export function endByHand(socket: Duplex, answer: string, bounds: LingerBounds = DEFAULT_BOUNDS): void {
  answeredByHand.set(socket, bytesRead(socket) + bounds.maxBytes);
  socket.write(answer);
  closeInStages(socket, bounds.maxMs);
  // A socket handed over by node:http (a `CONNECT`) is read here; one its parser still reads
  // reaches discardedByHand through the `clientError` listener instead.
  socket.on("data", () => discardedByHand(socket));
  socket.resume();
}
