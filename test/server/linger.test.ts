/**
 * The lingering close (mock/server/linger.ts) on a bare node:http server, with small bounds
 * (256 KiB, 300 ms, cut off 100 ms past the byte bound) so that each bound can be reached quickly: an answer given while the body is
 * still arriving says `connection: close`, is read by the client, and the connection then closes
 * in stages, cutting off a client that sends too much or too long; an answer given after the body
 * was read, or to a request without one, is left alone.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lingerIfEarly } from "../../mock/server/linger.js";
import { statusOf, upload } from "./support/raw-upload.js";

const KiB = 1024;
const BOUNDS = { maxBytes: 256 * KiB, maxMs: 300, cutoffMs: 100 };

/** For each request target: how long after its answer the server closed the connection, in ms. */
const closes = new Map<string, Promise<number>>();

/** Answers 413 with a short body. */
function refuse(request: IncomingMessage, response: ServerResponse): void {
  const answered = performance.now();
  closes.set(request.url!, new Promise((done) => request.socket.once("close", () => done(performance.now() - answered))));
  lingerIfEarly(request, response, BOUNDS);
  response.writeHead(413, { "content-type": "text/plain", "content-length": "8" });
  response.end("too big\n");
}

/** `/late…`: refused after twice the time bound; `/read…`: refused once the body is read; any other: refused at once. */
function listener(request: IncomingMessage, response: ServerResponse): void {
  if (request.url!.startsWith("/late")) setTimeout(() => refuse(request, response), 2 * BOUNDS.maxMs);
  else if (request.url!.startsWith("/read")) request.resume().on("end", () => refuse(request, response));
  else refuse(request, response);
}

let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer({ keepAlive: true }, listener);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => (server.close(() => done()), server.closeAllConnections())));

const post = (path: string) => [`POST ${path} HTTP/1.1`, "content-type: application/octet-stream"];

/** Sends a head and part of its body, then neither sends more nor closes; resolves with what the server sent by the time it closed its side. */
function stall(path: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port: Number(port), allowHalfOpen: true });
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (text: string) => (received += text));
    socket.on("error", reject);
    socket.on("end", () => resolve(received));
    socket.write(`${[...post(path), "host: mock", "content-length: 100000"].join("\r\n")}\r\n\r\n${"x".repeat(1000)}`);
  });
}

describe("an answer given while the body is still arriving", () => {
  it("says connection: close; a client that sends the rest within the bounds reads it, then the server closes without a reset", async () => {
    const result = await upload(url, { head: post("/now"), size: 128 * KiB, chunk: 16 * KiB, pauseMs: 5 });
    expect(result).toMatchObject({ error: undefined, written: 128 * KiB, closed: true });
    expect(statusOf(result.received)).toBe(413);
    expect(result.received).toMatch(/\r\nconnection: close\r\n/i);
  });

  it("a client that sends past the byte bound is cut off, having read the answer", async () => {
    const result = await upload(url, { head: post("/now"), size: 64 * 1024 * KiB, chunk: 64 * KiB });
    expect(statusOf(result.received)).toBe(413);
    expect(result.error).toMatch(/^(EPIPE|ECONNRESET)$/);
    expect(result.written).toBeLessThan(64 * 1024 * KiB);
  });

  it("a client past the byte bound is read no further and keeps the connection for the cut-off time, so it reads its answer before any reset", async () => {
    // Old behaviour, a reset the moment the bound was passed, raced the client: a client whose
    // next write failed before it had read the answer already in its socket never saw it.
    const offered = 64 * 1024 * KiB;
    const result = await upload(url, { head: post("/bulk"), size: offered, chunk: 64 * KiB });
    expect(statusOf(result.received)).toBe(413);
    expect(result.error).toMatch(/^(EPIPE|ECONNRESET)$/);
    // Not read: the client's writes stalled once the two kernels' socket buffers were full.
    expect(result.written).toBeLessThan(BOUNDS.maxBytes + 24 * 1024 * KiB);
    const ms = await closes.get("/bulk")!;
    expect(ms).toBeGreaterThanOrEqual(BOUNDS.cutoffMs - 10);
    expect(ms).toBeLessThan(BOUNDS.maxMs + 1_000);
  });

  it("a client that stops sending but keeps the connection reads the answer, and is closed once the time bound passes", async () => {
    expect(statusOf(await stall("/stall"))).toBe(413);
    const ms = await closes.get("/stall")!;
    expect(ms).toBeGreaterThanOrEqual(BOUNDS.maxMs - 10);
    expect(ms).toBeLessThan(BOUNDS.maxMs + 1_000);
  });

  it("the time bound starts when the answer is written, not when the request came", async () => {
    expect(statusOf(await stall("/late"))).toBe(413);
    expect(await closes.get("/late")!).toBeGreaterThanOrEqual(BOUNDS.maxMs - 10);
  });
});

describe("an answer given once the body is read, or to a request without one, is left alone", () => {
  it.each([
    ["a body read before the answer", { method: "POST", path: "/read", body: "x".repeat(64 * KiB) }],
    ["no body (a GET)", { method: "GET", path: "/now", body: undefined }],
  ])("%s: the connection stays open for the next request", async (_, { method, path, body }) => {
    const response = await fetch(`${url}${path}`, { method, body });
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("keep-alive");
  });
});
