import { describe, expect, it } from "vitest";
import { RequestValidationError } from "../../src/index.js";
import { VERSION } from "../../src/version.js";
import { fakeFetch, json } from "./support/fetch.js";
import { API_KEY, clientFor, createBody, page, prospectLog, subscription } from "./support/fixtures.js";
import { useServer } from "./support/http-server.js";

const server = useServer();

describe("spec 4 and issue 3.2: each operation sends its method, path, headers and JSON body", () => {
  it("createProspectLog: POST /v0/prospect_logs with a JSON body", async () => {
    server.script({ status: 201, body: prospectLog });
    const result = await clientFor(server.url).createProspectLog(createBody);
    expect(result).toEqual(prospectLog);
    const [request] = server.received;
    expect(request).toMatchObject({ method: "POST", path: "/v0/prospect_logs" });
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.json).toMatchObject(createBody);
  });

  it("getPage: GET /v0/page_groups/{id}/pages/{id} without a body or content-type", async () => {
    server.script({ body: page });
    const result = await clientFor(server.url).getPage({ pageGroupId: "pagegroup_1", pageId: "page_2" });
    expect(result).toEqual(page);
    const [request] = server.received;
    expect(request).toMatchObject({ method: "GET", path: "/v0/page_groups/pagegroup_1/pages/page_2", body: "" });
    expect(request?.headers["content-type"]).toBeUndefined();
  });

  it("updateWebhookSubscription: PATCH /v0/webhook_subscriptions/{id}; the ID is not in the body", async () => {
    server.script({ body: subscription });
    const result = await clientFor(server.url).updateWebhookSubscription({ subscriptionId: "ws_1", active: false });
    expect(result).toEqual(subscription);
    const [request] = server.received;
    expect(request).toMatchObject({ method: "PATCH", path: "/v0/webhook_subscriptions/ws_1", json: { active: false } });
    expect(request?.headers["content-type"]).toBe("application/json");
  });

  it("the API key goes in x-api-key on every request and nowhere else (not in the path or the body)", async () => {
    server.fallback = () => ({ status: 503, headers: { "retry-after-ms": "0" } });
    server.script({ status: 503, headers: { "retry-after-ms": "0" } }, { status: 201, body: prospectLog });
    await clientFor(server.url).createProspectLog(createBody);
    expect(server.received).toHaveLength(2);
    for (const request of server.received) {
      expect(request.headers["x-api-key"]).toBe(API_KEY);
      expect(request.path).not.toContain(API_KEY);
      expect(request.body).not.toContain(API_KEY);
    }
  });

  it("sends accept: application/json and a user-agent naming the SDK and its version", async () => {
    server.script({ body: page });
    await clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" });
    expect(server.received[0]?.headers.accept).toBe("application/json");
    expect(server.received[0]?.headers["user-agent"]).toMatch(new RegExp(`^prospectkit/${VERSION.replaceAll(".", "\\.")}( |$)`));
  });

  it("sends no user-agent in a browser, which forbids setting it", async () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, "navigator");
    Object.defineProperty(globalThis, "navigator", { value: { userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130" }, configurable: true });
    try {
      const { fetch, calls } = fakeFetch(json(page));
      await clientFor("https://api.example.com", { fetch }).getPage({ pageGroupId: "g", pageId: "p" });
      expect(calls[0]?.headers.get("user-agent")).toBeNull();
    } finally {
      if (original) Object.defineProperty(globalThis, "navigator", original);
      else Reflect.deleteProperty(globalThis, "navigator");
    }
  });
});

describe("issue 3.1: headers of the client and of the call merge; the key and content-type stay the SDK's", () => {
  it.each<[string, Record<string, string | null> | undefined, Record<string, string | null> | undefined, Record<string, unknown>]>([
    ["client headers are sent", { "x-team": "growth" }, undefined, { "x-team": "growth" }],
    ["call headers are sent", undefined, { "x-trace": "t1" }, { "x-trace": "t1" }],
    ["a call header overrides a client header, whatever its case", { "X-Team": "growth" }, { "x-team": "sales" }, { "x-team": "sales" }],
    // undici then sends its own default ("node"), which is the runtime's, not the SDK's
    ["null removes the SDK's user-agent", undefined, { "User-Agent": null }, { "user-agent": expect.not.stringContaining("prospectkit") }],
    ["a custom user-agent replaces the default", { "user-agent": "my-app/1" }, undefined, { "user-agent": "my-app/1" }],
    ["x-api-key cannot be replaced by a client header", { "x-api-key": "other" }, undefined, { "x-api-key": API_KEY }],
    ["x-api-key cannot be replaced or removed by a call header", undefined, { "X-API-Key": null }, { "x-api-key": API_KEY }],
    ["content-type stays application/json", undefined, { "content-type": "text/plain" }, { "content-type": "application/json" }],
  ])("%s", async (_rule, clientHeaders, callHeaders, expected) => {
    server.script({ status: 201, body: prospectLog });
    const client = clientFor(server.url, clientHeaders ? { headers: clientHeaders } : {});
    await client.createProspectLog(createBody, callHeaders ? { headers: callHeaders } : undefined);
    const headers = server.received[0]?.headers ?? {};
    for (const [name, value] of Object.entries(expected)) expect(headers[name]).toEqual(value);
  });
});

describe("issue 3.2: path parameters are URL-encoded, so an ID can never change the path", () => {
  it.each([
    ["a slash", "a/b", "a%2Fb"],
    ["a question mark", "a?b=c", "a%3Fb%3Dc"],
    ["a hash", "a#b", "a%23b"],
    ["a percent sign", "100%", "100%25"],
    ["a space", "a b", "a%20b"],
    ["a dot-dot inside an ID", "a..b", "a..b"],
    ["unicode", "seite-ä", "seite-%C3%A4"],
    ["an encoded slash stays encoded", "a%2Fb", "a%252Fb"],
  ])("%s: %j travels as %s", async (_rule, id, encoded) => {
    server.script({ body: page }, { body: subscription });
    const client = clientFor(server.url);
    await client.getPage({ pageGroupId: id, pageId: id });
    await client.updateWebhookSubscription({ subscriptionId: id, active: true });
    expect(server.received.map((request) => request.path)).toEqual([
      `/v0/page_groups/${encoded}/pages/${encoded}`,
      `/v0/webhook_subscriptions/${encoded}`,
    ]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ["an empty pageGroupId", { pageGroupId: "", pageId: "p" }, "/pageGroupId", "too_short"],
    ["an empty pageId", { pageGroupId: "g", pageId: "" }, "/pageId", "too_short"],
    ["a missing pageId", { pageGroupId: "g" }, "/pageId", "required"],
    ["a numeric pageId", { pageGroupId: "g", pageId: 7 }, "/pageId", "invalid_type"],
    ["a pageId of '.'", { pageGroupId: "g", pageId: "." }, "/pageId", "invalid_value"],
    ["a pageGroupId of '..'", { pageGroupId: "..", pageId: "p" }, "/pageGroupId", "invalid_value"],
  ])("getPage with %s fails before sending", async (_rule, params, pointer, code) => {
    const error = await clientFor(server.url)
      .getPage(params as never)
      .catch((caught: unknown) => caught);
    expect(RequestValidationError.is(error)).toBe(true);
    expect((error as RequestValidationError).errors).toEqual([expect.objectContaining({ pointer, code })]);
    expect(server.received).toHaveLength(0);
  });

  it.each([
    ["an empty subscriptionId", ""],
    ["a subscriptionId of '..'", ".."],
  ])("updateWebhookSubscription with %s fails before sending, even with request validation off", async (_rule, subscriptionId) => {
    const call = clientFor(server.url, { validateRequests: false }).updateWebhookSubscription({ subscriptionId, active: true });
    await expect(call).rejects.toThrow(RequestValidationError);
    expect(server.received).toHaveLength(0);
  });

  it("both IDs missing are reported together", async () => {
    const error = (await clientFor(server.url)
      .getPage({} as never)
      .catch((caught: unknown) => caught)) as RequestValidationError;
    expect(error.errors.map((e) => e.pointer)).toEqual(["/pageGroupId", "/pageId"]);
  });
});
