import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { APIConnectionError, APITimeoutError, APIUserAbortError, createClient } from "../../src/index.js";
import { fakeFetch, json, never } from "./support/fetch.js";
import { API_KEY, caught, clientFor, createBody, page, prospectLog } from "./support/fixtures.js";
import { useServer } from "./support/http-server.js";

const server = useServer();
afterEach(() => {
  vi.useRealTimers();
});

const ids = { pageGroupId: "g", pageId: "p" };

describe("issue 3.5: each attempt has its own timeout, and a timeout raises APITimeoutError", () => {
  it.each([
    ["a server slow to answer", { delayMs: 400, body: page }],
    ["a server that stalls in the middle of the body", { body: page, stallMs: 400 }],
  ])("%s", async (_rule, answer) => {
    server.script(answer);
    const error = (await caught(clientFor(server.url, { timeoutMs: 50, maxRetries: 0 }).getPage(ids))) as APITimeoutError;
    expect(APITimeoutError.is(error)).toBe(true);
    expect(error).toMatchObject({ attempts: 1, message: "Attempt 1 timed out after 50 ms" });
  });

  it("a timed-out attempt is retried, and the retry may succeed", async () => {
    // The retry answers at once and must do so within the timeout: 1 s, so a loaded machine does too.
    server.script({ delayMs: 3_000, body: page }, { body: page });
    expect(await clientFor(server.url, { timeoutMs: 1_000, maxRetries: 1 }).getPage(ids)).toEqual(page);
    expect(server.received).toHaveLength(2);
  });

  it("timeoutMs of a call overrides the client's", async () => {
    server.script({ delayMs: 400, body: page });
    await expect(clientFor(server.url, { timeoutMs: 10_000, maxRetries: 0 }).getPage(ids, { timeoutMs: 50 })).rejects.toThrow(APITimeoutError);
  });

  it("totalTimeoutMs bounds the whole call, even inside one long attempt", async () => {
    server.script({ delayMs: 1000, body: page });
    const started = Date.now();
    await expect(clientFor(server.url, { timeoutMs: 10_000, totalTimeoutMs: 100 }).getPage(ids)).rejects.toThrow(APITimeoutError);
    expect(Date.now() - started).toBeLessThan(900);
    expect(server.received).toHaveLength(1);
  });

  it("the default per-attempt timeout is 60 s", async () => {
    vi.useFakeTimers();
    const { fetch, calls } = fakeFetch(never);
    const result = caught(createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch, maxRetries: 0 }).getPage(ids));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(APITimeoutError.is(await result)).toBe(true);
  });
});

describe("issue 3.5: the caller's signal cancels the call, raises APIUserAbortError and is never retried", () => {
  it("an abort during the attempt", async () => {
    // The abort (at 30 ms) comes long before the answer would (2 s), on a loaded machine too.
    server.fallback = () => ({ delayMs: 2_000, body: page });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 30);
    const error = (await caught(clientFor(server.url, { maxRetries: 5 }).getPage(ids, { signal: controller.signal }))) as APIUserAbortError;
    expect(APIUserAbortError.is(error)).toBe(true);
    expect(APIConnectionError.is(error)).toBe(false);
    expect(error.attempts).toBe(1);
    expect((error.cause as Error).message).toBe("user left");
    // Longer than the first backoff (at most 500 ms): a retry would have been sent by now.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(server.received).toHaveLength(1);
  });

  it("a signal aborted before the call sends nothing", async () => {
    const error = (await caught(clientFor(server.url).createProspectLog(createBody, { signal: AbortSignal.abort() }))) as APIUserAbortError;
    expect(error).toMatchObject({ kind: "APIUserAbortError", attempts: 0 });
    expect(server.received).toHaveLength(0);
  });

  it("an abort while waiting to retry ends the wait at once", async () => {
    vi.useFakeTimers();
    const { fetch, calls } = fakeFetch(json({}, { status: 503 }));
    const controller = new AbortController();
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch });
    const result = caught(client.getPage(ids, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100); // inside the first backoff (375 to 500 ms)
    controller.abort();
    const error = (await result) as APIUserAbortError;
    expect(error).toMatchObject({ kind: "APIUserAbortError", attempts: 1 });
    expect(calls).toHaveLength(1);
  });

  it("a caller's signal never switches the timeout off", async () => {
    server.script({ delayMs: 400, body: page });
    const controller = new AbortController();
    const call = clientFor(server.url, { timeoutMs: 50, maxRetries: 0 }).getPage(ids, { signal: controller.signal });
    await expect(call).rejects.toThrow(APITimeoutError);
  });

  it("a timeout is reported as a timeout even when the caller's signal is a long AbortSignal.timeout", async () => {
    server.script({ delayMs: 400, body: page });
    const call = clientFor(server.url, { timeoutMs: 50, maxRetries: 0 }).getPage(ids, { signal: AbortSignal.timeout(60_000) });
    await expect(call).rejects.toThrow(APITimeoutError);
  });

  it("leaves no listener on a long-lived signal", async () => {
    server.fallback = () => ({ status: 201, body: prospectLog });
    const controller = new AbortController();
    const client = clientFor(server.url);
    for (let i = 0; i < 20; i++) await client.createProspectLog(createBody, { signal: controller.signal });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
