/**
 * A client that uploads a body over a raw socket the way many HTTP clients do: it writes the
 * whole body (or until the connection fails), reading whatever the server sends meanwhile, then
 * closes its side. It records what it received, how much of the body the socket took, and how the
 * upload ended: what a test needs to see whether an early answer reached the client.
 */
import { connect } from "node:net";

/** How an upload went. */
export interface Upload {
  /** Everything the server sent, as latin1 text. */
  readonly received: string;
  /** Body bytes the socket accepted before the upload ended. */
  readonly written: number;
  /** The code of the error that ended the upload (`EPIPE`, `ECONNRESET`), or undefined. */
  readonly error: string | undefined;
  /** Whether the connection closed within the time given (false: the upload timed out). */
  readonly closed: boolean;
}

/** What to send and how. */
export interface UploadOptions {
  /** The request head's lines (request line and headers); `content-length` is added, and `host` (the server's own) unless given. */
  readonly head: readonly string[];
  /** The body's size in bytes (it is `x` repeated). */
  readonly size: number;
  /** Bytes per write (default 64 KiB). */
  readonly chunk?: number;
  /** A pause after each write, in ms (default 0: write as fast as the socket takes it). */
  readonly pauseMs?: number;
  /** Give up after this many ms (default 10 s). */
  readonly timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Uploads a body to `url` over a new connection.
 * @param url - the server's base URL
 * @param options - the head, the body size and the pace
 */
export async function upload(url: string, options: UploadOptions): Promise<Upload> {
  const { hostname, port } = new URL(url);
  const { size, chunk = 64 * 1024, pauseMs = 0, timeoutMs = 10_000 } = options;
  // Half-open: the server's end of stream does not stop this client writing (a client that
  // writes its whole body before it reads, like Python's http.client).
  const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
  let received = "";
  let error: string | undefined;
  socket.setEncoding("latin1");
  socket.on("data", (text: string) => (received += text));
  socket.on("error", (failure: NodeJS.ErrnoException) => (error ??= failure.code ?? failure.message));
  const closed = new Promise<boolean>((done) => {
    const timer = setTimeout(() => (socket.destroy(), done(false)), timeoutMs);
    socket.once("close", () => (clearTimeout(timer), done(true)));
  });
  const write = (data: string | Buffer) =>
    new Promise<boolean>((done) => {
      if (socket.destroyed || !socket.writable) return done(false);
      socket.write(data, (failure) => done(failure == null));
    });
  await new Promise<void>((done) => socket.once("connect", done));
  let written = 0;
  const host = options.head.some((line) => /^host:/i.test(line)) ? [] : [`host: ${new URL(url).host}`];
  if (await write(`${[...options.head, ...host, `content-length: ${size}`].join("\r\n")}\r\n\r\n`)) {
    const piece = Buffer.alloc(chunk, "x");
    while (written < size) {
      const bytes = Math.min(chunk, size - written);
      if (!(await write(bytes === chunk ? piece : piece.subarray(0, bytes)))) break;
      written += bytes;
      if (pauseMs > 0) await sleep(pauseMs);
    }
  }
  if (!socket.destroyed) socket.end();
  // What arrives until the close counts too (an answer may come after the last write).
  const ended = await closed;
  return { received, written, error, closed: ended };
}

/** The status of the first answer in what a server sent, or 0. */
export function statusOf(received: string): number {
  return Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1] ?? 0);
}

/** The JSON body of the first answer in what a server sent (its head must state a content-length). */
export function bodyOf(received: string): unknown {
  const start = received.indexOf("\r\n\r\n") + 4;
  const length = Number(/\r\ncontent-length: (\d+)\r\n/i.exec(received.slice(0, start))?.[1]);
  return JSON.parse(received.slice(start, start + length));
}
