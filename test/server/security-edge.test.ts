/**
 * Rules (BEHAVIOUR.md, "The standalone server on a developer's machine"): the server answers only
 * the `Host` names it trusts (DNS rebinding), and the mock's controls answer a cross-origin
 * request only from loopback origins and the origins it was given. Over the CLI, as users run it.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliProcess, startCli } from "./support/cli-process.js";

const KEY = "mock_api_key";
const SECRET_ROUTE = "/__mock/webhook_subscriptions/webhooksubscription_demo/secret";

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request with any `Host` and headers (fetch cannot set `Host`). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: hostname, port, method, path, headers, agent: false }, (response) => {
      if ((response.headers["content-type"] ?? "").startsWith("text/event-stream")) {
        // The console's feed never ends: its head is the answer.
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: "" });
        response.destroy();
        return;
      }
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The demo state as its own tenant sees it (secret included), to show a refused request changed nothing. */
async function demoState(base: string): Promise<string> {
  const host = { host: new URL(base).host, "x-api-key": KEY };
  const state = await send(base, "GET", "/__mock/state", host);
  const secret = await send(base, "GET", SECRET_ROUTE, host);
  const faults = await send(base, "GET", "/__mock/faults", host);
  return state.body + secret.body + faults.body;
}

function expectRefused(answer: Answer, code: string, option: string): void {
  expect(answer.status).toBe(403);
  expect(answer.headers["content-type"]).toBe("application/problem+json");
  expect(answer.headers["x-request-id"]).toMatch(/^req_[0-9a-z]{26}$/);
  const problem = JSON.parse(answer.body);
  expect(problem).toMatchObject({ status: 403, code });
  expect(problem.detail).toContain(option);
  expect(answer.body).not.toContain("whsec_");
  expect(Object.keys(answer.headers).filter((name) => name.startsWith("access-control-allow"))).toEqual([]);
}

/** A request to each kind of route the server has: what a hostile page would try first. */
const ROUTES: readonly (readonly [label: string, method: string, path: string, body?: string])[] = [
  ["the API", "GET", "/v0/page_groups/pagegroup_demo/pages/page_demo"],
  ["the API document", "GET", "/openapi.json"],
  ["the control API's secret route", "GET", SECRET_ROUTE],
  ["the state dump", "GET", "/__mock/state"],
  ["a reset", "POST", "/__mock/reset"],
  ["a fault", "POST", "/__mock/faults", '{"kind":"status","status":503}'],
  ["the control document", "GET", "/__mock/openapi.json"],
  ["the console", "GET", "/__mock/console"],
  ["the console's feed", "GET", "/__mock/events"],
  ["the inbox", "POST", "/__mock/inbox/demo", "{}"],
];

let server: CliProcess;
beforeAll(async () => {
  server = await startCli(["--port", "0", "--quiet"]);
});
afterAll(() => server.stop());

describe("Host: only loopback names, IP literals and the names given are answered (DNS rebinding)", () => {
  const port = () => new URL(server.url).port;

  it.each([
    ["localhost", true],
    ["LOCALHOST", true],
    ["app.localhost", true],
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["[::1]", true],
    ["10.0.0.5 (an IP literal cannot be rebound)", true],
    ["[2001:db8::1]", true],
    ["evil.example", false],
    ["localhost.evil.example", false],
    ["127.0.0.1.nip.io", false],
    ["mock", false],
  ])("%s: answered %s", async (name, answered) => {
    const host = `${name.split(" ")[0]}:${port()}`;
    const before = await demoState(server.url);
    for (const [label, method, path, body] of ROUTES) {
      const headers: Record<string, string> = { host, "x-api-key": KEY, ...(body !== undefined && { "content-type": "application/json" }) };
      const answer = await send(server.url, method, path, headers, body);
      if (answered) expect(answer.status, `${label} answered for ${host}`).not.toBe(403);
      else expectRefused(answer, "host_not_allowed", "--allowed-host");
      if (answered && method === "POST") await send(server.url, "POST", "/__mock/reset", { host: `127.0.0.1:${port()}`, "x-api-key": KEY });
    }
    if (!answered) expect(await demoState(server.url)).toBe(before);
  });

  it("a request without a Host header (HTTP/1.0: no browser sends one) is answered", async () => {
    const { connect } = await import("node:net");
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port()), "127.0.0.1");
      let received = "";
      socket.setEncoding("latin1");
      socket.on("data", (chunk: string) => (received += chunk));
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
      socket.write("GET /openapi.json HTTP/1.0\r\n\r\n");
    });
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe("--allowed-host widens the Host check; the banner says so", () => {
  it.each([
    [
      ["--allowed-host", "mock", "--allowed-host", ".ngrok.app"],
      ["mock", "a.ngrok.app", "ngrok.app", "x.y.ngrok.app"],
      ["evil.example", "ngrok.app.evil"],
    ],
    [["--allowed-host", "*"], ["evil.example", "mock"], []],
  ])("%j", async (flags, allowed, refused) => {
    const widened = await startCli(["--port", "0", "--quiet", ...flags]);
    try {
      expect(widened.stdout()).toMatch(flags.includes("*") ? /Hosts +EVERY host name is answered/ : /Hosts +also answers mock, \.ngrok\.app/);
      for (const name of allowed) expect((await send(widened.url, "GET", SECRET_ROUTE, { host: name, "x-api-key": KEY })).status).toBe(200);
      for (const name of refused)
        expectRefused(await send(widened.url, "GET", SECRET_ROUTE, { host: name, "x-api-key": KEY }), "host_not_allowed", "--allowed-host");
    } finally {
      await widened.stop();
    }
  });

  it("the default banner names no widening", () => {
    expect(server.stdout()).not.toMatch(/Hosts |Origins /);
  });
});

describe("Origin: /v0 answers every origin; the controls only loopback origins and the origins given", () => {
  const host = () => new URL(server.url).host;

  it.each([
    ["https://evil.example", false],
    ["http://localhost.evil.example:5173", false],
    ["null (a sandboxed frame or a file)", false],
    ["http://localhost:5173", true],
    ["http://app.localhost:3000", true],
    ["http://127.0.0.1:8080", true],
    ["http://[::1]:8080", true],
    ["the server's own origin", true],
  ])("Origin %s: the controls answer %s", async (name, allowed) => {
    const origin = name === "the server's own origin" ? server.url : name.split(" ")[0]!;
    const before = await demoState(server.url);
    for (const [label, method, path, body] of ROUTES) {
      const headers: Record<string, string> = {
        host: host(),
        origin,
        "x-api-key": KEY,
        ...(body !== undefined && { "content-type": "application/json" }),
      };
      const answer = await send(server.url, method, path, headers, body);
      const publicPath = path.startsWith("/v0/") || path === "/openapi.json";
      if (publicPath) {
        expect(answer.status, label).toBe(200);
        expect(answer.headers["access-control-allow-origin"], label).toBe("*");
      } else if (allowed) {
        expect(answer.status, label).not.toBe(403);
        expect(answer.headers["access-control-allow-origin"], label).toBe(origin);
        expect(answer.headers.vary, label).toContain("origin");
      } else {
        expectRefused(answer, "origin_not_allowed", "--cors-origin");
      }
      if (allowed && method === "POST") await send(server.url, "POST", "/__mock/reset", { host: host(), "x-api-key": KEY });
    }
    if (!allowed) expect(await demoState(server.url)).toBe(before);
  });

  it.each([
    ["/__mock/reset", "https://evil.example", false],
    [SECRET_ROUTE, "https://evil.example", false],
    ["/__mock/reset", "http://localhost:5173", true],
    ["/v0/webhook_subscriptions/webhooksubscription_demo", "https://evil.example", true],
  ])("a preflight for %s from %s: allowed %s", async (path, origin, allowed) => {
    const answer = await send(server.url, "OPTIONS", path, {
      host: host(),
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "x-api-key, content-type",
    });
    if (!allowed) {
      expectRefused(answer, "origin_not_allowed", "--cors-origin");
      return;
    }
    expect(answer.status).toBe(204);
    expect(answer.headers["access-control-allow-origin"]).toBe(path.startsWith("/v0/") ? "*" : origin);
    expect(answer.headers["access-control-allow-headers"]).toBe("x-api-key, content-type");
  });

  it("--cors-origin lets one more origin in, and only it; the banner says so", async () => {
    const widened = await startCli(["--port", "0", "--quiet", "--cors-origin", "https://app.example.com"]);
    try {
      expect(widened.stdout()).toMatch(/Origins +pages from https:\/\/app\.example\.com may also call the control API/);
      const base = { host: new URL(widened.url).host, "x-api-key": KEY };
      const ok = await send(widened.url, "GET", SECRET_ROUTE, { ...base, origin: "https://app.example.com" });
      expect(ok.status).toBe(200);
      expect(ok.headers["access-control-allow-origin"]).toBe("https://app.example.com");
      expectRefused(
        await send(widened.url, "GET", SECRET_ROUTE, { ...base, origin: "https://other.example.com" }),
        "origin_not_allowed",
        "--cors-origin",
      );
    } finally {
      await widened.stop();
    }
  });

  it("--cors-origin '*' opens the controls to every origin, and the banner warns", async () => {
    const widened = await startCli(["--port", "0", "--quiet", "--cors-origin", "*"]);
    try {
      expect(widened.stdout()).toMatch(/Origins +EVERY web page may drive the control API/);
      const answer = await send(widened.url, "GET", SECRET_ROUTE, {
        host: new URL(widened.url).host,
        "x-api-key": KEY,
        origin: "https://evil.example",
      });
      expect(answer.status).toBe(200);
    } finally {
      await widened.stop();
    }
  });

  it("a path that climbs out of /v0 (/v0/../__mock/reset) is checked where it lands", async () => {
    const before = await demoState(server.url);
    const answer = await send(server.url, "POST", "/v0/../__mock/reset", { host: host(), origin: "https://evil.example", "x-api-key": KEY });
    expectRefused(answer, "origin_not_allowed", "--cors-origin");
    expect(await demoState(server.url)).toBe(before);
  });
});
