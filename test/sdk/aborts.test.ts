/**
 * Issue 17.4: a caller's abort is honoured at every await of a call (BEHAVIOUR: SDK input and
 * server quirks). Once the signal fires, no request is sent and the call rejects at once with
 * APIUserAbortError, whichever await it is in: the caller's async hooks, the body read, the
 * backoff wait. Each row aborts at 50 ms while that await still has 300 ms to go.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { APIUserAbortError, type ClientOptions, createClient } from "../../src/index.js";
import { type Answer, fakeFetch, json } from "./support/fetch.js";
import { API_KEY, caught, page } from "./support/fixtures.js";

const ids = { pageGroupId: "g", pageId: "p" };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const slowHook = () => sleep(300);
const retryNow = () => json({}, { status: 503, headers: { "retry-after-ms": "0" } });
/** A 200 whose body sends its first bytes and then nothing, without ever tying itself to the signal. */
const stalledBody = () =>
  new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"pageId":')) }), {
    headers: { "content-type": "application/json" },
  });

describe("issue 17.4: an abort is honoured at every await of a call", () => {
  it.each<[string, Answer[], ClientOptions, number, number]>([
    // [where the call waits, what the fetch answers, the client's options, attempts reported, requests sent]
    ["an async onRequest hook (the first request is never sent)", [json(page)], { onRequest: slowHook }, 0, 0],
    [
      "an async onRequest hook before a retry (the retry is never sent)",
      [retryNow(), json(page)],
      { onRequest: (event) => (event.attempt === 2 ? slowHook() : undefined) },
      1,
      1,
    ],
    ["an async onResponse hook (no data is returned)", [json(page)], { onResponse: slowHook }, 1, 1],
    ["an async onRetry hook (no retry is sent)", [retryNow(), json(page)], { onRetry: slowHook }, 1, 1],
    ["the backoff wait before a retry", [json({}, { status: 503 }), json(page)], {}, 1, 1],
    ["reading a body that stalls (a fetch that does not tie its body to the signal)", [stalledBody], {}, 1, 1],
  ])("%s", async (_, answers, options, attempts, sent) => {
    const { fetch, calls } = fakeFetch(...answers);
    const controller = new AbortController();
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch, ...options });
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("user left")), 50);
    const error = (await caught(client.getPage(ids, { signal: controller.signal }))) as APIUserAbortError;
    expect(APIUserAbortError.is(error)).toBe(true);
    expect(error.attempts).toBe(attempts);
    expect((error.cause as Error).message).toBe("user left");
    expect(Date.now() - started).toBeLessThan(280); // at once, not when the await would have ended
    await sleep(350);
    expect(calls).toHaveLength(sent); // and nothing more went out afterwards
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a signal that fired before the call: no hook runs, nothing is sent", async () => {
    const { fetch, calls } = fakeFetch(json(page));
    const hooks: string[] = [];
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch, onRequest: () => void hooks.push("request") });
    const error = await caught(client.getPage(ids, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: "APIUserAbortError", attempts: 0 });
    expect(hooks).toEqual([]);
    expect(calls).toHaveLength(0);
  });

  it("a signal that fires during a synchronous hook is seen before the request is sent", async () => {
    const { fetch, calls } = fakeFetch(json(page));
    const controller = new AbortController();
    const client = createClient({ apiKey: API_KEY, baseUrl: "https://api.example.com", fetch, onRequest: () => controller.abort() });
    const error = await caught(client.getPage(ids, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: "APIUserAbortError", attempts: 0 });
    expect(calls).toHaveLength(0);
  });
});
