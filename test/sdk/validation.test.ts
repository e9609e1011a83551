import { afterEach, describe, expect, it, vi } from "vitest";
import { createMockApi, DEFAULT_API_KEY, DEFAULT_BASE_URL } from "../../mock/core.js";
import { RequestValidationError, ResponseValidationError, type ValidationIssueEvent, type ValidationMode } from "../../src/index.js";
import { caught, clientFor, createBody, page, prospectLog, subscription } from "./support/fixtures.js";
import { type Scripted, useServer } from "./support/http-server.js";

const server = useServer();
afterEach(() => {
  vi.restoreAllMocks();
});

describe("issue 3.3: request bodies are checked against the strict schemas before anything is sent", () => {
  it.each<[string, unknown, string[]]>([
    ["source missing", { payload: {} }, ["/source"]],
    ["source too long and a bad phone number at once", { source: "x".repeat(101), payload: {}, phoneNumber: "0049" }, ["/source", "/phoneNumber"]],
    ["payload an array", { source: "crm", payload: [] }, ["/payload"]],
    ["an invalid email", { source: "crm", payload: {}, email: "not-an-email" }, ["/email"]],
    ["a typo in a field name", { source: "crm", payload: {}, emial: "a@b.co" }, ["/emial"]],
    ["an empty idempotencyKey", { source: "crm", payload: {}, idempotencyKey: "" }, ["/idempotencyKey"]],
    ["no body at all", undefined, [""]],
  ])("createProspectLog with %s lists every problem", async (_rule, body, pointers) => {
    const error = (await caught(clientFor(server.url).createProspectLog(body as never))) as RequestValidationError;
    expect(RequestValidationError.is(error)).toBe(true);
    expect(error.operation).toBe("createProspectLog");
    expect(error.errors.map((e) => e.pointer)).toEqual(pointers);
    expect(error.message).toMatch(/^Invalid createProspectLog input: /);
    expect(server.received).toHaveLength(0);
  });

  it.each<[string, Record<string, unknown>, string[], string[]]>([
    ["an empty events list", { subscriptionId: "s", events: [] }, ["/events"], ["events_empty"]],
    ["an unknown event kind", { subscriptionId: "s", events: ["page.deleted"] }, ["/events/0"], ["invalid_value"]],
    ["an ftp url", { subscriptionId: "s", url: "ftp://x.example" }, ["/url"], ["invalid_format"]],
    ["active as a string", { subscriptionId: "s", active: "no" }, ["/active"], ["invalid_type"]],
    ["an unknown field", { subscriptionId: "s", secret: "x" }, ["/secret"], ["unknown_field"]],
    [
      "an empty ID and an empty events list at once",
      { subscriptionId: "", events: [] },
      ["/subscriptionId", "/events"],
      ["too_short", "events_empty"],
    ],
  ])("updateWebhookSubscription with %s", async (_rule, params, pointers, codes) => {
    const error = (await caught(clientFor(server.url).updateWebhookSubscription(params as never))) as RequestValidationError;
    expect(error.errors.map((e) => e.pointer)).toEqual(pointers);
    expect(error.errors.map((e) => e.code)).toEqual(codes);
    expect(server.received).toHaveLength(0);
  });

  it("the field errors are exactly those the API's 400 would list (shared toFieldErrors)", async () => {
    const error = (await caught(clientFor(server.url).createProspectLog({ source: "", payload: {} }))) as RequestValidationError;
    expect(error.errors).toEqual([{ pointer: "/source", code: "too_short", detail: "source must have at least 1 character" }]);
  });

  it("a bad phone number is explained in words, by the SDK and by the mock alike (issue 16.8)", async () => {
    const detail = "phoneNumber must be a phone number in E.164 form: a plus sign, then 2 to 15 digits, the first not 0";
    const body = { source: "crm", payload: {}, phoneNumber: "030 1234567" };
    const error = (await caught(clientFor(server.url).createProspectLog(body))) as RequestValidationError;
    expect(error.errors).toEqual([{ pointer: "/phoneNumber", code: "invalid_format", detail }]);
    const api = createMockApi();
    const answer = await api.fetch(
      new Request(`${DEFAULT_BASE_URL}/v0/prospect_logs`, {
        method: "POST",
        headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
    expect(answer.status).toBe(400);
    expect((await answer.json()).errors).toEqual(error.errors);
  });

  it.each([
    ["on the client", { validateRequests: false }, undefined],
    ["on one call", {}, { validateRequests: false }],
  ])("can be switched off %s: the body is sent as given", async (_rule, clientOptions, callOptions) => {
    server.script({ status: 400, body: { code: "invalid_request" } });
    const call = clientFor(server.url, { ...clientOptions, maxRetries: 0 }).createProspectLog(
      { source: "", payload: {}, emial: "x" } as never,
      callOptions,
    );
    await expect(call).rejects.toMatchObject({ kind: "BadRequestError" });
    expect(server.received[0]?.json).toMatchObject({ source: "", emial: "x" });
  });
});

const drifted: [string, string, Scripted, unknown][] = [
  ["createProspectLog", "a missing prospectLogId", { status: 201, body: { ...prospectLog, prospectLogId: undefined } }, ["/prospectLogId"]],
  ["createProspectLog", "createdAt without Z", { status: 201, body: { ...prospectLog, createdAt: "2024-02-29T12:00:00" } }, ["/createdAt"]],
  ["getPage", "customName missing (it must be present, null or a string)", { body: { ...page, customName: undefined } }, ["/customName"]],
  [
    "getPage",
    "versionNumber as a string",
    { body: { ...page, publishedVersion: { ...page.publishedVersion, versionNumber: "3" } } },
    ["/publishedVersion/versionNumber"],
  ],
  [
    "getPage",
    "publishedVersion.versionId missing (present, null when unpublished)",
    { body: { ...page, publishedVersion: { versionNumber: 3, publishedAt: null } } },
    ["/publishedVersion/versionId"],
  ],
  ["updateWebhookSubscription", "active as a string", { body: { ...subscription, active: "yes" } }, ["/active"]],
];

function callFor(operation: string, mode: ValidationMode, onValidationIssue?: (event: ValidationIssueEvent) => void) {
  const client = clientFor(server.url, { validateResponses: mode, ...(onValidationIssue && { onValidationIssue }) });
  if (operation === "createProspectLog") return client.createProspectLog(createBody);
  if (operation === "getPage") return client.getPage({ pageGroupId: "g", pageId: "p" });
  return client.updateWebhookSubscription({ subscriptionId: "s", active: true });
}

describe("issue 3.3: responses are checked in the mode strict (default), warn or off", () => {
  it.each(drifted)(
    "strict: %s with %s throws ResponseValidationError with the issues and the raw body",
    async (operation, _rule, answer, pointers) => {
      server.script(answer);
      const events: ValidationIssueEvent[] = [];
      const error = (await caught(callFor(operation, "strict", (event) => void events.push(event)))) as ResponseValidationError;
      expect(ResponseValidationError.is(error)).toBe(true);
      expect(error.issues.map((issue) => issue.pointer)).toEqual(pointers);
      expect(error.body).toBe(JSON.stringify(answer.body));
      expect(error).toMatchObject({ operation, status: answer.status ?? 200 });
      expect(error.requestId).toMatch(/^req_/);
      expect(events).toHaveLength(1);
      expect(server.received).toHaveLength(1); // a drifted response is not retried
    },
  );

  it.each(drifted)("warn: %s with %s returns the data and reports the issue", async (operation, _rule, answer, pointers) => {
    server.script(answer);
    const events: ValidationIssueEvent[] = [];
    const data = await callFor(operation, "warn", (event) => void events.push(event));
    expect(data).toEqual(JSON.parse(JSON.stringify(answer.body)));
    expect(events.map((event) => event.issues.map((issue) => issue.pointer))).toEqual([pointers]);
    expect(events[0]).toMatchObject({ operation, status: answer.status ?? 200, body: data });
  });

  it("warn without a callback writes one warning to the console", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    server.script({ body: { ...page, customName: 7 } });
    await callFor("getPage", "warn");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe("prospectkit: unexpected getPage response");
  });

  it.each(drifted)("off: %s with %s returns the data without a check", async (operation, _rule, answer) => {
    server.script(answer);
    const onValidationIssue = vi.fn();
    expect(await callFor(operation, "off", onValidationIssue)).toEqual(JSON.parse(JSON.stringify(answer.body)));
    expect(onValidationIssue).not.toHaveBeenCalled();
  });

  it("the mode of a call overrides the client's", async () => {
    server.script({ body: { ...page, customName: 7 } });
    const client = clientFor(server.url, { validateResponses: "strict" });
    expect(await client.getPage({ pageGroupId: "g", pageId: "p" }, { validateResponses: "off" })).toMatchObject({ customName: 7 });
  });
});

describe("issue 3.3: a success body that is not JSON is a ResponseValidationError in every mode", () => {
  it.each<[string, Scripted, ValidationMode]>([
    ["malformed JSON", { body: '{"pageId": "p",' }, "strict"],
    ["an HTML page with status 200 (wrong content type)", { headers: { "content-type": "text/html" }, body: "<html>login</html>" }, "off"],
    ["an empty 200", {}, "warn"],
  ])("%s", async (_rule, answer, mode) => {
    server.script(answer);
    const error = (await caught(callFor("getPage", mode))) as ResponseValidationError;
    expect(error.issues).toEqual([{ pointer: "", code: "invalid_json", detail: "the body is not valid JSON" }]);
    expect(error.body).toBe(typeof answer.body === "string" ? answer.body : "");
  });

  it("valid JSON under a text/plain content type is accepted", async () => {
    server.script({ headers: { "content-type": "text/plain" }, body: JSON.stringify(page) });
    expect(await callFor("getPage", "strict")).toEqual(page);
  });
});

describe("issue 3.3: forward compatibility: what the API adds later is never an error", () => {
  it.each<[string, string, Scripted]>([
    ["an unknown top-level field", "createProspectLog", { status: 201, body: { ...prospectLog, score: 0.9 } }],
    ["an unknown nested field", "getPage", { body: { ...page, publishedVersion: { ...page.publishedVersion, channel: "web" } } }],
    ["an unknown event kind", "updateWebhookSubscription", { body: { ...subscription, events: ["page.deleted", "form.submitted"] } }],
    ["events null (all kinds)", "updateWebhookSubscription", { body: { ...subscription, events: null } }],
    [
      "an unpublished page (publishedVersion fields null)",
      "getPage",
      { body: { ...page, publishedVersion: { versionId: null, versionNumber: null, publishedAt: null } } },
    ],
  ])("%s passes in strict mode and is kept in the data", async (_rule, operation, answer) => {
    server.script(answer);
    const onValidationIssue = vi.fn();
    expect(await callFor(operation, "strict", onValidationIssue)).toEqual(answer.body);
    expect(onValidationIssue).not.toHaveBeenCalled();
  });
});
