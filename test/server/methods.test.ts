/**
 * Rules (BEHAVIOUR.md, "Errors") over raw sockets, for what fetch cannot send: every request gets
 * an answer with `x-request-id`, whatever its method token (TRACE, TRACK, CONNECT, lower-case
 * names, tokens node:http does not know). A known path with a method it does not serve: 401 when
 * the key is missing or wrong, else 405 with `Allow`. HEAD is served wherever GET is, without a
 * body, on every route (API, control API, documents). And the stored data can always be listed:
 * a body nested 10,000 levels deep is refused, so the control listings keep answering.
 */
import { connect } from "node:net";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";

const KEY = "key_methods";
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, apiKeys: [KEY] });
  server.api.state.pageGroups.create({ id: "g1" });
  server.api.state.pages.create({ id: "p1", pageGroupId: "g1" });
});
afterAll(() => server.close());
beforeEach(() => {
  server.api.reset();
  server.api.state.pageGroups.create({ id: "g1" });
  server.api.state.pages.create({ id: "p1", pageGroupId: "g1" });
});

interface RawAnswer {
  readonly status: number;
  readonly headers: Map<string, string>;
  readonly body: string;
  /** Whether the server closed the connection (rather than the timeout). */
  readonly closed: boolean;
}

/** Sends one request head on a new connection; reads until the server closes it or the whole answer arrived. */
function send(method: string, path: string, key: string | null, extra: string[] = []): Promise<RawAnswer> {
  const { port } = new URL(server.url);
  const lines = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", ...(key === null ? [] : [`x-api-key: ${key}`]), ...extra, "connection: close"];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let text = "";
    const done = (closed: boolean) => {
      clearTimeout(timer);
      const end = text.indexOf("\r\n\r\n");
      const [statusLine = "", ...fields] = text.slice(0, end === -1 ? text.length : end).split("\r\n");
      const headers = new Map(fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()] as const));
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body: end === -1 ? "" : text.slice(end + 4), closed });
    };
    const timer = setTimeout(() => (socket.destroy(), done(false)), 3_000);
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => done(true));
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  });
}

/** Every route family the server has, with the Allow of its 405. */
const ROUTES = [
  { path: "/v0/prospect_logs", allow: "POST" },
  { path: "/v0/page_groups/g1/pages/p1", allow: "GET, HEAD" },
  { path: "/v0/webhook_subscriptions/s1", allow: "PATCH" },
  { path: "/__mock/faults", allow: "GET, HEAD, POST, DELETE" },
  { path: "/__mock/prospect_logs", allow: "GET, HEAD" },
] as const;

const FORBIDDEN_BY_FETCH = ["TRACE", "TRACK", "CONNECT"];

describe("TRACE, TRACK and CONNECT: 401 first, then 405 with Allow, always x-request-id, never a dropped socket", () => {
  it.each(FORBIDDEN_BY_FETCH.flatMap((method) => ROUTES.map((route) => [method, route.path, route.allow] as const)))(
    "%s %s: 401 without a key, 401 with a wrong one, 405 with Allow %s with a good one",
    async (method, path, allow) => {
      for (const [key, status] of [
        [null, 401],
        ["wrong_key", 401],
        [KEY, 405],
      ] as const) {
        const answer = await send(method, path, key);
        expect(answer.status).toBe(status);
        expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
        expect(answer.headers.get("content-type")).toBe("application/problem+json");
        expect(JSON.parse(answer.body).requestId).toBe(answer.headers.get("x-request-id"));
        if (status === 405) expect(answer.headers.get("allow")).toBe(allow);
      }
    },
  );

  it("CONNECT with an authority-form target (a proxy tunnel request) names no API path: a 404 problem, not a closed socket", async () => {
    const answer = await send("CONNECT", "example.com:443", null);
    expect(answer.status).toBe(404);
    expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  });

  it("on an unknown path they are 404 with a key, and the document answers 405", async () => {
    expect((await send("TRACK", "/v0/nothing", KEY)).status).toBe(404);
    const document = await send("TRACE", "/openapi.json", null);
    expect(document.status).toBe(405);
    expect(document.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("every method token on every route (property, over raw sockets)", () => {
  const token = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/);
  it("a token a route does not serve is 401 without a key, 405 with Allow with one; always x-request-id", async () => {
    await fc.assert(
      fc.asyncProperty(token, fc.constantFrom(...ROUTES), fc.boolean(), async (method, route, withKey) => {
        fc.pre(method !== "HEAD" && !route.allow.split(", ").includes(method));
        const answer = await send(method, route.path, withKey ? KEY : null);
        expect(answer.closed).toBe(true);
        expect(answer.status).toBe(withKey ? 405 : 401);
        expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
        if (withKey) expect(answer.headers.get("allow")).toBe(route.allow);
      }),
      { numRuns: 80 },
    );
  });
});

describe("HEAD is served wherever GET is, without a body", () => {
  it.each([
    ["the page route", "/v0/page_groups/g1/pages/p1", 200],
    ["a control listing", "/__mock/prospect_logs", 200],
    ["the API document", "/openapi.json", 200],
    ["the control document", "/__mock/openapi.json", 200],
  ])("HEAD on %s: the GET's status and content-length, no body", async (_, path, status) => {
    const get = await send("GET", path, KEY);
    const head = await send("HEAD", path, KEY);
    expect(get.status).toBe(status);
    expect(head.status).toBe(status);
    expect(head.body).toBe("");
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(get.body, "latin1")));
    expect(head.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  });
});

describe("every listing of stored data keeps answering (a body nested 10,000 levels is refused)", () => {
  it("after a 10,000-level payload, the control listings still answer with x-request-id", async () => {
    const body = `{"source":"crm","payload":{"d":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`;
    const post = await fetch(`${server.url}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body,
    });
    expect(post.status).toBe(400);
    for (const path of ["/__mock/prospect_logs", "/__mock/requests", "/__mock/prospects"]) {
      const answer = await fetch(`${server.url}${path}`, { headers: { "x-api-key": KEY } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
      await answer.json();
    }
  });
});
