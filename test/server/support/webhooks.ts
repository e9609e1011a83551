/**
 * Helpers for the server's webhook tests: a real `node:http` receiver on loopback that records
 * every request and answers as the test says, a control API caller, and a poll.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** A request the receiver got: headers and the exact body. */
export interface ReceivedWebhook {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** How the receiver answers the n-th request (from 0); it may also never answer. */
export type Answer = (request: IncomingMessage, response: ServerResponse, n: number) => void;

/** A running receiver. */
export interface Receiver {
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** How many requests are open right now, and the most ever open at once. */
  readonly open: { now: number; max: number };
  /**
   * How many TCP connections are open right now, and the most ever open at once (idle ones too):
   * from accept until the sender ends or resets it.
   */
  readonly connections: { now: number; max: number };
  close(): Promise<void>;
}

/**
 * Starts a receiver on a free loopback port.
 * @param answer - how to answer (default 204)
 */
export async function startReceiver(answer: Answer = (_, response) => response.writeHead(204).end()): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const open = { now: 0, max: 0 };
  const connections = { now: 0, max: 0 };
  const server = createServer((request, response) => {
    open.now += 1;
    open.max = Math.max(open.max, open.now);
    response.on("close", () => (open.now -= 1));
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const n = received.push({ path: request.url ?? "/", headers, body: Buffer.concat(chunks).toString("utf8") }) - 1;
      answer(request, response, n);
    });
  });
  // A connection counts from its accept until the receiver sees the sender let go of it (end of
  // stream or reset, whichever comes first), or closes it itself (after answering a request that
  // said `connection: close`). The count is taken once the loop has handled every event that
  // arrived with the accept: a sender that closed its last connection before opening this one
  // delivered that close first, and it is counted first. A connection this receiver has already
  // destroyed is gone even while its close event waits for the loop's close phase, which comes
  // after the count. (A connection opened and closed within one turn of the loop is never seen open.)
  const counted = new Map<Socket, () => void>();
  server.on("connection", (socket) => {
    let state: "new" | "counted" | "gone" = "new";
    const gone = () => {
      if (state === "counted") (connections.now -= 1), counted.delete(socket);
      state = "gone";
    };
    socket.once("end", gone).once("error", gone).once("close", gone);
    setImmediate(() => {
      if (state !== "new") return;
      for (const [other, letGo] of counted) if (other.destroyed) letGo();
      state = "counted";
      counted.set(socket, gone);
      connections.now += 1;
      connections.max = Math.max(connections.max, connections.now);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    open,
    connections,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** A loopback URL nothing listens on (a port that was free a moment ago). */
export async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return `http://127.0.0.1:${port}/hook`;
}

/** Calls the control API (or the API) and reads the JSON answer. */
export async function call(base: string, key: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = key === null ? {} : { "x-api-key": key };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : JSON.parse(text) };
}

/** Polls `check` every 10 ms until it returns a value other than undefined/false, or fails after `ms`. */
export async function until<T>(check: () => T | Promise<T>, what: string, ms = 10_000): Promise<Exclude<T, undefined | false>> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    if (performance.now() > deadline) throw new TypeError(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
