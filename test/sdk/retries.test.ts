import { afterEach, describe, expect, it, vi } from "vitest";
import {
  APIConnectionError,
  type APIError,
  BadRequestError,
  createClient,
  InternalServerError,
  RateLimitError,
  type RetryEvent,
} from "../../src/index.js";
import { backoffMs, retryAfterMs } from "../../src/retry.js";
import { connectionRefused, fakeFetch, json } from "./support/fetch.js";
import { API_KEY, caught, clientFor, createBody, page, prospectLog } from "./support/fixtures.js";
import { problem, type Scripted, useServer } from "./support/http-server.js";

const server = useServer();
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** An error answer the server asks to retry at once (keeps real-HTTP tests fast). */
const now = (answer: Scripted): Scripted => ({ ...answer, headers: { ...answer.headers, "retry-after-ms": "0" } });
/** Headers with every "DATE+n" value replaced by the HTTP date n seconds from now (resolved when the test runs). */
const withDates = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      value.startsWith("DATE+") ? new Date(Date.now() + Number(value.slice(5)) * 1000).toUTCString() : value,
    ]),
  );
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("issue 3.4: 408, 429 and 5xx are retried up to maxRetries (default 2); other statuses never", () => {
  it.each([
    [408, 3],
    [429, 3],
    [500, 3],
    [502, 3],
    [503, 3],
    [504, 3],
    [400, 1],
    [401, 1],
    [403, 1],
    [404, 1],
    [409, 1],
    [413, 1],
    [422, 1],
  ])("status %i: %i attempts in all", async (status, attempts) => {
    server.fallback = () => now(problem(status, "x"));
    const error = (await caught(clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }))) as APIError;
    expect(server.received).toHaveLength(attempts);
    expect(error.status).toBe(status);
    expect(error.attempts).toBe(attempts);
  });

  it.each([
    [0, 1],
    [1, 2],
    [4, 5],
  ])("maxRetries %i on the client: %i attempts", async (maxRetries, attempts) => {
    server.fallback = () => now(problem(503, "unavailable"));
    await caught(clientFor(server.url, { maxRetries }).getPage({ pageGroupId: "g", pageId: "p" }));
    expect(server.received).toHaveLength(attempts);
  });

  it("maxRetries of a call overrides the client's", async () => {
    server.fallback = () => now(problem(503, "unavailable"));
    await caught(clientFor(server.url, { maxRetries: 5 }).getPage({ pageGroupId: "g", pageId: "p" }, { maxRetries: 1 }));
    expect(server.received).toHaveLength(2);
  });

  it("a retry that succeeds returns the result", async () => {
    server.script(now(problem(500, "internal_error")), now(problem(429, "rate_limited")), { body: page });
    expect(await clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" })).toEqual(page);
    expect(server.received).toHaveLength(3);
  });
});

describe("issue 3.4: connection errors are retried", () => {
  it.each<[string, Scripted]>([
    ["a connection dropped before the response", { drop: "before-response" }],
    ["a connection dropped in the middle of the body", { status: 200, body: page, drop: "mid-body" }],
  ])("%s", async (_rule, answer) => {
    server.script(answer, { body: page });
    expect(await clientFor(server.url, { maxRetries: 1 }).getPage({ pageGroupId: "g", pageId: "p" })).toEqual(page);
    expect(server.received).toHaveLength(2);
  });

  it("a refused connection ends in an APIConnectionError that says why, after every attempt", async () => {
    const { fetch, calls } = fakeFetch(connectionRefused());
    const client = createClient({ apiKey: API_KEY, baseUrl: "http://127.0.0.1:9", fetch, maxRetries: 1 });
    vi.useFakeTimers();
    const result = caught(client.getPage({ pageGroupId: "g", pageId: "p" }));
    await vi.runAllTimersAsync();
    const error = (await result) as APIConnectionError;
    expect(APIConnectionError.is(error)).toBe(true);
    expect(error.message).toBe("Connection error: fetch failed (connect ECONNREFUSED 127.0.0.1:9)");
    expect(error.attempts).toBe(2);
    expect(calls).toHaveLength(2);
  });
});

describe("issue 3.4: createProspectLog is retried only with an idempotency key, the same on every attempt", () => {
  it("generates a UUID key when the caller gave none and sends it on every attempt", async () => {
    server.script(now(problem(503, "unavailable")), { drop: "before-response" }, { status: 201, body: prospectLog });
    await clientFor(server.url).createProspectLog(createBody);
    const keys = server.received.map((request) => (request.json as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(1);
  });

  it("keeps the caller's key, on every attempt", async () => {
    server.script(now(problem(500, "internal_error")), { status: 201, body: prospectLog });
    await clientFor(server.url).createProspectLog({ ...createBody, idempotencyKey: "order-42" });
    expect(server.received.map((request) => (request.json as { idempotencyKey: string }).idempotencyKey)).toEqual(["order-42", "order-42"]);
  });

  it("gives two calls two different keys, and never changes the caller's object", async () => {
    server.script({ status: 201, body: prospectLog }, { status: 201, body: prospectLog });
    const body = { ...createBody };
    const client = clientFor(server.url);
    await client.createProspectLog(body);
    await client.createProspectLog(body);
    const [a, b] = server.received.map((request) => (request.json as { idempotencyKey: string }).idempotencyKey);
    expect(a).not.toBe(b);
    expect(body).toEqual(createBody);
  });

  it("falls back to getRandomValues where crypto.randomUUID does not exist", async () => {
    vi.spyOn(crypto, "randomUUID").mockImplementation(undefined as never);
    Object.defineProperty(crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      server.script({ status: 201, body: prospectLog }, { status: 201, body: prospectLog });
      const client = clientFor(server.url);
      await client.createProspectLog(createBody);
      await client.createProspectLog(createBody);
      const keys = server.received.map((request) => (request.json as { idempotencyKey: string }).idempotencyKey);
      expect(keys[0]).toMatch(UUID_V4);
      expect(keys[1]).toMatch(UUID_V4);
      expect(keys[0]).not.toBe(keys[1]);
    } finally {
      Reflect.deleteProperty(crypto, "randomUUID"); // uncovers the prototype's method again
    }
    expect(typeof crypto.randomUUID).toBe("function");
  });

  it("a create whose first response was lost is replayed by the server, so only one log exists", async () => {
    const stored = new Map<string, unknown>();
    let lost = false;
    server.fallback = (request) => {
      const key = (request.json as { idempotencyKey: string }).idempotencyKey;
      if (stored.has(key)) return { status: 201, headers: { "idempotent-replayed": "true" }, body: stored.get(key) };
      stored.set(key, prospectLog);
      if (!lost) {
        lost = true;
        return { drop: "before-response" }; // the log is written, the answer never arrives
      }
      return { status: 201, body: prospectLog };
    };
    const { data, response } = await clientFor(server.url, { maxRetries: 1 }).createProspectLog(createBody).withResponse();
    expect(data).toEqual(prospectLog);
    expect(response.headers.get("idempotent-replayed")).toBe("true");
    expect(stored.size).toBe(1);
  });
});

describe("issue 3.4: backoff is 0.5 s doubling to a cap of 8 s, less up to 25 % jitter", () => {
  it.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [4, 4000],
    [5, 8000],
    [6, 8000],
    [12, 8000],
  ])("retry %i waits up to %i ms", (retry, max) => {
    expect(backoffMs(retry, 0)).toBe(max);
    expect(backoffMs(retry, 0.999999)).toBeCloseTo(max * 0.75, 0);
    for (let i = 0; i < 50; i++) {
      const delay = backoffMs(retry);
      expect(delay).toBeGreaterThan(max * 0.75);
      expect(delay).toBeLessThanOrEqual(max);
    }
  });

  it("the client really waits that long between attempts", async () => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { fetch, calls } = fakeFetch(json({}, { status: 503 }), json({}, { status: 503 }), json(page));
    const delays: number[] = [];
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch, onRetry: (event) => void delays.push(event.delayMs) });
    const result = client.getPage({ pageGroupId: "g", pageId: "p" });
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    expect(await result).toEqual(page);
    expect(delays).toEqual([500, 1000]);
  });
});

describe("issue 3.4: the server's requested wait is honoured: retry-after-ms, Retry-After seconds or HTTP date", () => {
  const at = Date.UTC(2025, 0, 1, 12, 0, 0);
  it.each<[string, Record<string, string>, number | undefined]>([
    ["retry-after-ms", { "retry-after-ms": "1500" }, 1500],
    ["retry-after-ms with a fraction", { "retry-after-ms": "12.5" }, 12.5],
    ["Retry-After in seconds", { "retry-after": "3" }, 3000],
    ["Retry-After 0", { "retry-after": "0" }, 0],
    ["Retry-After as an HTTP date", { "retry-after": new Date(at + 4000).toUTCString() }, 4000],
    ["Retry-After as a date in the past", { "retry-after": new Date(at - 4000).toUTCString() }, 0],
    ["retry-after-ms wins over Retry-After", { "retry-after-ms": "10", "retry-after": "30" }, 10],
    ["an invalid retry-after-ms falls back to Retry-After", { "retry-after-ms": "soon", "retry-after": "2" }, 2000],
    ["a Retry-After that is no number and no date", { "retry-after": "soon" }, undefined],
    ["a negative Retry-After", { "retry-after": "-5" }, undefined],
    ["no header", {}, undefined],
  ])("%s", (_rule, headers, expected) => {
    expect(retryAfterMs(new Headers(headers), at)).toBe(expected);
  });

  it.each<[string, Record<string, string>, number]>([
    ["Retry-After seconds", { "retry-after": "3" }, 3000],
    ["an HTTP date", { "retry-after": "DATE+7" }, 7000],
    ["exactly the 60 s cap", { "retry-after": "60" }, 60_000],
    ["an invalid value: backoff instead", { "retry-after": "soon" }, 500],
  ])("the client waits for %s before the next attempt", async (_rule, headers, wait) => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0) }); // a whole second: HTTP dates have no milliseconds
    vi.spyOn(Math, "random").mockReturnValue(0);
    const resolved = withDates(headers);
    const { fetch, calls } = fakeFetch(json({}, { status: 429, headers: resolved }), json(page));
    const delays: number[] = [];
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch, onRetry: (event) => void delays.push(event.delayMs) });
    const result = client.getPage({ pageGroupId: "g", pageId: "p" });
    await vi.advanceTimersByTimeAsync(wait - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(await result).toEqual(page);
    expect(delays).toEqual([wait]);
  });

  it("over real HTTP, retry-after-ms is the gap between the attempts", async () => {
    server.script({ ...problem(429, "rate_limited"), headers: { "retry-after-ms": "150" } }, { body: page });
    await clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" });
    const [first, second] = server.received;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(145);
  });
});

describe("issue 3.4: a wait longer than the 60 s cap or the time left ends the call at once with retryAfterMs", () => {
  it.each<[string, Record<string, string>, object, number]>([
    ["Retry-After 61 s, over the cap", { "retry-after": "61" }, {}, 61_000],
    ["retry-after-ms over the cap", { "retry-after-ms": "60001" }, {}, 60_001],
    ["an HTTP date two minutes ahead", { "retry-after": "DATE+120" }, {}, 120_000],
    ["Retry-After 5 s with 2 s of totalTimeoutMs left", { "retry-after": "5" }, { totalTimeoutMs: 2000 }, 5000],
  ])("%s", async (_rule, headers, options, retryAfter) => {
    const resolved = withDates(headers);
    server.script({ ...problem(429, "rate_limited"), headers: { ...problem(429, "rate_limited").headers, ...resolved } });
    const started = Date.now();
    const error = (await caught(clientFor(server.url, options).getPage({ pageGroupId: "g", pageId: "p" }))) as RateLimitError;
    expect(Date.now() - started).toBeLessThan(1000);
    expect(RateLimitError.is(error)).toBe(true);
    expect(error.attempts).toBe(1);
    expect(error.retryAfterMs).toBeGreaterThan(retryAfter - 2000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(retryAfter);
    expect(server.received).toHaveLength(1);
  });

  it("a 503 over the cap ends with its own class, InternalServerError, carrying retryAfterMs", async () => {
    server.script({ status: 503, headers: { "retry-after": "120" } });
    const error = (await caught(clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }))) as InternalServerError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ attempts: 1, retryAfterMs: 120_000 });
  });

  it("when the retries run out on 429, RateLimitError carries the last retryAfterMs", async () => {
    server.fallback = () => ({ ...problem(429, "rate_limited"), headers: { "retry-after-ms": "5" } });
    const error = (await caught(clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }))) as RateLimitError;
    expect(error).toMatchObject({ kind: "RateLimitError", attempts: 3, retryAfterMs: 5 });
  });

  it("a backoff longer than the time left ends the call with the last error", async () => {
    server.fallback = () => problem(503, "unavailable");
    const error = (await caught(clientFor(server.url, { totalTimeoutMs: 200 }).getPage({ pageGroupId: "g", pageId: "p" }))) as APIError;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(server.received).toHaveLength(1);
  });

  it("a 400 is never retried, whatever Retry-After says", async () => {
    server.fallback = () => ({ ...problem(400, "invalid_request"), headers: { "retry-after": "0" } });
    await expect(clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" })).rejects.toThrow(BadRequestError);
    expect(server.received).toHaveLength(1);
  });
});

describe("issue 3.8: onRetry says which attempt failed, why, and how long the SDK waits", () => {
  it("one event per retry", async () => {
    server.script(now(problem(503, "unavailable")), { body: page });
    const events: RetryEvent[] = [];
    await clientFor(server.url, { onRetry: (event) => void events.push(event) }).getPage({ pageGroupId: "g", pageId: "p" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ operation: "getPage", method: "GET", attempt: 1, delayMs: 0 });
    expect(InternalServerError.is(events[0]?.error)).toBe(true);
  });
});

describe("issue 17.6: Retry-After counts only in its two RFC 9110 forms; anything else gets the normal backoff", () => {
  const at = Date.UTC(2025, 0, 1, 12, 0, 0);
  it.each<[string, Record<string, string>, number | undefined]>([
    ["a number after a word (Date.parse reads it as a year)", { "retry-after": "soon 5" }, undefined],
    ["hexadecimal (Number reads 0x10 as 16)", { "retry-after": "0x10" }, undefined],
    ["an exponent", { "retry-after": "1e3" }, undefined],
    ["a fraction of seconds", { "retry-after": "1.5" }, undefined],
    ["a plus sign", { "retry-after": "+3" }, undefined],
    ["an ISO date (not an HTTP date)", { "retry-after": "2025-01-01T12:00:05Z" }, undefined],
    ["hexadecimal retry-after-ms", { "retry-after-ms": "0x10" }, undefined],
    ["digits only", { "retry-after": "7" }, 7000],
    ["an RFC 850 date", { "retry-after": "Wednesday, 01-Jan-25 12:00:09 GMT" }, 9000],
    ["an asctime date", { "retry-after": "Wed Jan  1 12:00:03 2025" }, 3000],
  ])("%s", (_rule, headers, expected) => {
    expect(retryAfterMs(new Headers(headers), at)).toBe(expected);
  });

  it('"soon 5" does not make the client retry at once: it waits the normal backoff', async () => {
    vi.useFakeTimers({ now: at });
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { fetch, calls } = fakeFetch(json({}, { status: 503, headers: { "retry-after": "soon 5" } }), json(page));
    const result = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch }).getPage({ pageGroupId: "g", pageId: "p" });
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(await result).toEqual(page);
  });
});

describe("issue 17.7: only 500-599 are server errors; a status outside 100-599 is a plain APIError, not retried", () => {
  it.each([
    [599, "InternalServerError", 3],
    [600, "APIError", 1],
    [999, "APIError", 1],
  ])("status %i: %s after %i attempts", async (status, kind, attempts) => {
    const { fetch, calls } = fakeFetch(() => new Response("{}", { status: 200, headers: { "retry-after-ms": "0" } }));
    // a Response cannot be built with a status over 599: present one the way a broken proxy would reach us
    const broken: typeof fetch = async (url, init) =>
      Object.defineProperties(await fetch(url, init), { status: { value: status }, ok: { value: false } });
    const error = await caught(
      createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch: broken }).getPage({ pageGroupId: "g", pageId: "p" }),
    );
    expect(error).toMatchObject({ kind, status, attempts });
    expect(calls).toHaveLength(attempts);
  });
});

describe("issue 17.7 over real HTTP: a 600 from the server", () => {
  it("is a plain APIError after one attempt", async () => {
    server.fallback = () => now({ status: 600, body: "odd" });
    const error = await caught(clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }));
    expect(error).toMatchObject({ kind: "APIError", status: 600, attempts: 1 });
    expect(server.received).toHaveLength(1);
  });
});
