/**
 * The console as HTTP sees it (the browser test drives the page itself): where it lives, how its
 * files are served (content types, CSP, caching), that a browser's `GET /` is sent there while
 * API clients get the answers they always got, that the page never carries a key, and that the
 * live feed authenticates like the control API and tells a tenant only about its own requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_CSP, CONSOLE_PATH, EVENTS_PATH } from "../../mock/console/handler.js";
import { type LiveEvent, parseFrames } from "../../mock/console/ui/live.js";
import { DEFAULT_API_KEY } from "../../mock/core.js";
import { type AnsweredRequest, type MockServer, startMockServer } from "../../mock/server/index.js";

const KEY_A = "console_key_tenant_a";
const KEY_B = "console_key_tenant_b";

let server: MockServer;
let devServer: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, apiKeys: { [KEY_A]: "tenant_a", [KEY_B]: "tenant_b" } });
  devServer = await startMockServer({ port: 0 });
});
afterAll(async () => {
  await server.close();
  await devServer.close();
});

const get = (url: string, headers: Record<string, string> = {}, method = "GET") => fetch(url, { method, headers, redirect: "manual" });

/** An event of the feed, its data read freely by the assertions (the console itself narrows it). */
type ReadEvent = LiveEvent & { readonly data: any };

/** Reads a feed until `count` events arrived (or 3 s passed), then stops it. */
async function readEvents(response: Response, count: number): Promise<ReadEvent[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: ReadEvent[] = [];
  let buffer = "";
  const deadline = Date.now() + 3_000;
  while (events.length < count && Date.now() < deadline) {
    const next = await Promise.race([reader.read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), deadline - Date.now()))]);
    if (next === null || next.done) break;
    const parsed = parseFrames(buffer + next.value);
    buffer = parsed.rest;
    events.push(...parsed.events);
  }
  await reader.cancel();
  return events;
}

const createLog = (url: string, key: string, source: string) =>
  fetch(`${url}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ source, payload: {} }),
  });

describe("the console page and its files", () => {
  it("the page: HTML, a strict CSP, revalidated on every load, linking only this server's own files", async () => {
    const response = await get(`${server.url}${CONSOLE_PATH}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toMatch(/^default-src 'self';/);
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await response.text();
    const links = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toHaveLength(3);
    for (const link of links) expect(link).toMatch(/^\/__mock\/console\/[\w.]+$/);
  });

  it.each([
    ["script", /\.js$/, "text/javascript; charset=utf-8"],
    ["style sheet", /\.css$/, "text/css; charset=utf-8"],
    ["icon", /\.svg$/, "image/svg+xml"],
  ])("the %s: its content type, cached for a year under a name that changes with its content", async (_what, pattern, type) => {
    const html = await (await get(`${server.url}${CONSOLE_PATH}`)).text();
    const path = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!).find((link) => pattern.test(link))!;
    const response = await get(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(type);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await response.text()).length).toBeGreaterThan(100);
  });

  it("the page never carries a key: it only says whether the development key is on", async () => {
    const custom = await (await get(`${server.url}${CONSOLE_PATH}`)).text();
    expect(custom).toContain('data-development-key="false"');
    expect(custom).not.toContain(KEY_A);
    const dev = await (await get(`${devServer.url}${CONSOLE_PATH}`)).text();
    expect(dev).toContain('data-development-key="true"');
    expect(dev).not.toContain(DEFAULT_API_KEY);
  });

  it("an unknown file is a 404 problem; a method other than GET or HEAD a 405 with Allow", async () => {
    const missing = await get(`${server.url}${CONSOLE_PATH}/nope.js`);
    expect([missing.status, missing.headers.get("content-type")]).toEqual([404, "application/problem+json"]);
    const post = await get(`${server.url}${CONSOLE_PATH}`, {}, "POST");
    expect([post.status, post.headers.get("allow")]).toEqual([405, "GET, HEAD"]);
    const head = await get(`${server.url}${CONSOLE_PATH}`, {}, "HEAD");
    expect([head.status, await head.text()]).toEqual([200, ""]);
  });
});

describe("GET / : a browser is sent to the console, API clients see no change", () => {
  it.each([
    ["a browser (Accept: text/html, no key)", { accept: "text/html,application/xhtml+xml" }, 302],
    ["an API client (no Accept)", {}, 404],
    ["an API client (Accept: application/json)", { accept: "application/json" }, 404],
    ["a request with a key, even asking for HTML", { accept: "text/html", "x-api-key": KEY_A }, 404],
  ])("%s", async (_who, headers, status) => {
    const response = await get(`${server.url}/`, headers);
    expect(response.status).toBe(status);
    if (status === 302) expect(response.headers.get("location")).toBe(CONSOLE_PATH);
    else expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("/v0 answers do not change for a browser either", async () => {
    const response = await get(`${server.url}/v0/page_groups/g/pages/p`, { accept: "text/html" });
    expect([response.status, response.headers.get("content-type")]).toEqual([401, "application/problem+json"]);
  });
});

describe("the request hook marks the console's own traffic (the CLI prints the rest)", () => {
  it.each([
    ["the page", "GET", CONSOLE_PATH, {}, true],
    ["the event stream", "GET", EVENTS_PATH, {}, true],
    ["a read the console makes to refresh a view", "GET", "/__mock/state", { "x-prospectkit-console": "1" }, true],
    ["the same read from anyone else", "GET", "/__mock/state", {}, false],
    ["a write, even from the console", "POST", "/__mock/page_groups", { "x-prospectkit-console": "1", "content-type": "application/json" }, false],
    ["an API call", "GET", "/v0/page_groups/g/pages/p", {}, false],
  ])("%s: console %s", async (_what, method, path, headers, marked) => {
    const seen: AnsweredRequest[] = [];
    const hooked = await startMockServer({ port: 0, onRequest: (request) => seen.push(request) });
    try {
      const response = await fetch(`${hooked.url}${path}`, {
        method,
        headers: { "x-api-key": DEFAULT_API_KEY, ...headers },
        ...(method === "POST" && { body: "{}" }),
      });
      if (path === EVENTS_PATH) await response.body!.cancel();
      else await response.text();
      await expect.poll(() => seen.length).toBe(1);
      expect(seen[0]!.console === true).toBe(marked);
    } finally {
      await hooked.close();
    }
  });
});

describe("the live feed", () => {
  it.each([
    ["no key", {}, "missing_api_key"],
    ["an unknown key", { "x-api-key": "nope" }, "invalid_api_key"],
  ])("%s: 401 problem, like the control API", async (_case, headers, code) => {
    const response = await get(`${server.url}${EVENTS_PATH}`, headers);
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe(code);
  });

  it("is a text/event-stream that is never cached, opening with a ready event", async () => {
    const response = await get(`${server.url}${EVENTS_PATH}`, { "x-api-key": KEY_A });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect((await readEvents(response, 1)).map((event) => event.event)).toEqual(["ready"]);
  });

  it("tells a tenant of its own requests and control writes, never another tenant's", async () => {
    const feedA = await get(`${server.url}${EVENTS_PATH}`, { "x-api-key": KEY_A });
    const reading = readEvents(feedA, 4);
    await createLog(server.url, KEY_B, "tenant-b-source");
    await createLog(server.url, KEY_A, "tenant-a-source");
    await fetch(`${server.url}/__mock/page_groups`, {
      method: "POST",
      headers: { "x-api-key": KEY_A, "content-type": "application/json" },
      body: "{}",
    });
    const events = await reading;
    // The API request, the change it made, then the control API's write.
    expect(events.map((event) => event.event)).toEqual(["ready", "request", "change", "change"]);
    expect(events[1]!.data).toMatchObject({ method: "POST", path: "/v0/prospect_logs", status: 201, requestBody: { source: "tenant-a-source" } });
    expect(typeof events[1]!.data.durationMs).toBe("number");
    expect([events[2]!.data, events[3]!.data]).toEqual([{ kind: "state" }, { kind: "state" }]);
    expect(JSON.stringify(events)).not.toContain("tenant-b-source");
  });

  it("follows the key's tenant across a reset: one reset change, then its requests", async () => {
    const feed = await get(`${devServer.url}${EVENTS_PATH}`, { "x-api-key": DEFAULT_API_KEY });
    const reading = readEvents(feed, 4);
    await fetch(`${devServer.url}/__mock/reset`, { method: "POST", headers: { "x-api-key": DEFAULT_API_KEY } });
    await createLog(devServer.url, DEFAULT_API_KEY, "after-reset");
    const events = await reading;
    expect(events.map((event) => [event.event, event.data.kind ?? event.data.requestBody?.source])).toEqual([
      ["ready", undefined],
      ["change", "reset"],
      ["request", "after-reset"],
      ["change", "state"], // the log it wrote
    ]);
  });

  it("never carries an API key, not even one a client put in a body", async () => {
    const feed = await get(`${server.url}${EVENTS_PATH}`, { "x-api-key": KEY_A });
    const reading = readEvents(feed, 3);
    await createLog(server.url, KEY_A, KEY_A);
    const events = await reading;
    expect(events.map((event) => event.event)).toEqual(["ready", "request", "change"]);
    expect(JSON.stringify(events)).not.toContain(KEY_A);
  });
});
