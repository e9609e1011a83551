import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";

/** One scripted answer of the test server. */
export interface Scripted {
  /** HTTP status; default 200. */
  status?: number;
  /** The reason phrase of the status line; default Node's for the status. */
  statusText?: string;
  /** Response headers (an `x-request-id` is added unless given). */
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON (`content-type: application/json` unless given). */
  body?: unknown;
  /** Wait this long before sending the status line. */
  delayMs?: number;
  /** Destroy the connection: before any byte of the response, or after half of the body. */
  drop?: "before-response" | "mid-body";
  /** Send the first half of the body, then wait this long before the rest (a stalled body). */
  stallMs?: number;
}

/** A request as the server received it. */
export interface Received {
  method: string;
  /** The raw request target (path and query), exactly as sent on the wire. */
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** The body parsed as JSON (`undefined` when empty). */
  json: unknown;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

/** A local server on 127.0.0.1 and an OS-assigned port that answers from a script. */
export interface TestServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request received, in order. */
  received: Received[];
  /** Queues answers, used one per request in order; when the queue is empty, `fallback` answers. */
  script(...answers: Scripted[]): void;
  /** Answers every request that finds the queue empty (default: 599 "unscripted"). */
  fallback: (request: Received) => Scripted;
  /** Forgets the queue and the received requests. */
  reset(): void;
  close(): Promise<void>;
}

let counter = 0;

/** A JSON problem body as the mock sends it (BEHAVIOUR: RFC 9457 with code and requestId). */
export function problem(status: number, code: string, extra: Record<string, unknown> = {}): Scripted {
  const requestId = `req_${++counter}`;
  return {
    status,
    headers: { "content-type": "application/problem+json", "x-request-id": requestId },
    body: { type: "about:blank", title: `status ${status}`, status, detail: `${code} happened`, code, requestId, ...extra },
  };
}

function write(res: ServerResponse, answer: Scripted): void {
  const { status = 200, body, stallMs, drop } = answer;
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const headers: Record<string, string> = {
    "x-request-id": `req_${++counter}`,
    ...(typeof body === "string" || body === undefined ? {} : { "content-type": "application/json" }),
    ...answer.headers,
    "content-length": String(Buffer.byteLength(text)),
  };
  if (answer.statusText === undefined) res.writeHead(status, headers);
  else res.writeHead(status, answer.statusText, headers);
  if (drop === "mid-body" || stallMs !== undefined) {
    const half = text.slice(0, Math.floor(text.length / 2));
    res.write(half);
    if (drop === "mid-body") {
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    setTimeout(() => res.end(text.slice(half.length)), stallMs);
    return;
  }
  res.end(text);
}

/** Starts a scriptable server; close it in `afterAll`. */
export async function startServer(): Promise<TestServer> {
  const queue: Scripted[] = [];
  const server: TestServer = {
    url: "",
    received: [],
    script: (...answers) => void queue.push(...answers),
    fallback: () => ({ status: 599, body: "unscripted" }),
    reset() {
      queue.length = 0;
      server.received.length = 0;
      server.fallback = () => ({ status: 599, body: "unscripted" });
    },
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const received: Received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, json, at: Date.now() };
      server.received.push(received);
      const answer = queue.shift() ?? server.fallback(received);
      const send = () => (answer.drop === "before-response" ? req.socket.destroy() : write(res, answer));
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return server;
}

/**
 * Starts one server for the current test file (closed after it) and forgets its script and
 * requests before each test. The returned object forwards to the live server.
 */
export function useServer(): TestServer {
  let live: TestServer | undefined;
  beforeAll(async () => {
    live = await startServer();
  });
  afterAll(() => live?.close());
  beforeEach(() => live?.reset());
  const current = (): TestServer => live ?? expect.unreachable("the server starts in beforeAll");
  return new Proxy({} as TestServer, {
    get: (_target, key) => Reflect.get(current(), key),
    set: (_target, key, value) => Reflect.set(current(), key, value),
  });
}
