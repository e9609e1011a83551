/**
 * The control API under /__mock over real HTTP (plain fetch, no SDK): every route, its
 * validation (problem+json listing every failing field), authentication, tenancy (another
 * tenant's resources are 404) and its effect on the API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { OPERATIONS } from "../../src/operation-table.js";
import { PROBLEM_CONTENT_TYPE, ProblemDetails } from "../../src/schemas/index.js";
import { undescribedAnswers, watchControlAnswers } from "./support/control-answers.js";

const KEY_A = "key_tenant_a";
const KEY_B = "key_tenant_b";
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    apiKeys: { [KEY_A]: "tenant_a", [KEY_B]: "tenant_b" },
    seed: 1,
    fixtures(state) {
      state.pageGroups.create({ id: "pagegroup_b", tenantId: "tenant_b" });
      state.pages.create({ id: "page_b", pageGroupId: "pagegroup_b", tenantId: "tenant_b" });
      state.pageVersions.create({ id: "version_b", pageId: "page_b", tenantId: "tenant_b" });
    },
  });
});
afterAll(() => server.close());
beforeEach(() => server.api.reset());

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function call(
  method: string,
  path: string,
  options: { json?: unknown; raw?: BodyInit; key?: string | null; contentType?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.key !== null) headers["x-api-key"] = options.key ?? KEY_A;
  const body = options.json === undefined ? options.raw : JSON.stringify(options.json);
  if (body !== undefined) headers["content-type"] = options.contentType ?? "application/json";
  const response = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined && { body }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === "" ? undefined : JSON.parse(text) };
}

function expectProblem(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body?.code }).toEqual({ status, code });
  expect(answer.headers.get("content-type")).toBe(PROBLEM_CONTENT_TYPE);
  expect(ProblemDetails.safeParse(answer.body).success).toBe(true);
  expect(answer.body.requestId).toBe(answer.headers.get("x-request-id"));
}

describe("seeding pages through the control API", () => {
  it("page group → page → version → process → publish, and GET page shows the published version", async () => {
    const group = await call("POST", "/__mock/page_groups", { json: { id: "pagegroup_docs" } });
    expect(group).toMatchObject({ status: 201, body: { id: "pagegroup_docs", tenantId: "tenant_a" } });
    const page = await call("POST", "/__mock/pages", { json: { id: "page_guide", pageGroupId: "pagegroup_docs", customName: null } });
    expect(page.status).toBe(201);
    expect(page.body).toMatchObject({ pageId: "page_guide", effectiveName: "Untitled page", publishedVersion: { versionId: null } });
    const version = await call("POST", "/__mock/page_versions", { json: { pageId: "page_guide" } });
    expect(version.body).toMatchObject({ status: "created", versionNumber: 1 });
    const processed = await call("POST", `/__mock/page_versions/${version.body.id}/process`, { json: { computedName: "Getting started" } });
    expect(processed).toMatchObject({ status: 200, body: { status: "processed", computedName: "Getting started" } });
    const published = await call("POST", `/__mock/page_versions/${version.body.id}/publish`);
    expect(published).toMatchObject({ status: 200, body: { status: "published" } });
    const read = await call("GET", "/v0/page_groups/pagegroup_docs/pages/page_guide");
    expect(read.body).toMatchObject({ effectiveName: "Getting started", publishedVersion: { versionId: version.body.id, versionNumber: 1 } });
  });

  it("a page without pageGroupId gets a new group", async () => {
    const page = await call("POST", "/__mock/pages", { json: {} });
    expect(page.status).toBe(201);
    expect((await call("GET", `/v0/page_groups/${page.body.pageGroupId}/pages/${page.body.pageId}`)).status).toBe(200);
  });

  it("publishing a version that was never processed is refused (400) and changes nothing", async () => {
    const page = await call("POST", "/__mock/pages", { json: {} });
    const version = await call("POST", "/__mock/page_versions", { json: { pageId: page.body.pageId } });
    const before = server.api.state.snapshot();
    const answer = await call("POST", `/__mock/page_versions/${version.body.id}/publish`);
    expectProblem(answer, 400, "invalid_request");
    expect(answer.body.detail).toContain("never processed");
    expect(server.api.state.snapshot()).toBe(before);
  });
});

describe("webhook subscriptions through the control API", () => {
  it("creates one with its secret, and PATCH /v0 updates it", async () => {
    const created = await call("POST", "/__mock/webhook_subscriptions", {
      json: { url: "https://hooks.example.com/a", events: ["form.submitted", "form.submitted"] },
    });
    expect(created).toMatchObject({ status: 201, body: { events: ["form.submitted"], active: true, secret: expect.stringMatching(/^whsec_/) } });
    const patched = await call("PATCH", `/v0/webhook_subscriptions/${created.body.id}`, { json: { active: false } });
    expect(patched.body).toMatchObject({ id: created.body.id, active: false });
  });

  it("events null (or omitted) means every kind", async () => {
    expect((await call("POST", "/__mock/webhook_subscriptions", { json: { url: "https://hooks.example.com/b" } })).body.events).toBeNull();
  });
});

describe("listing what the API stored and answered", () => {
  it("prospects, prospect logs (all or of one prospect) and the tenant's recorded requests", async () => {
    const first = await call("POST", "/v0/prospect_logs", { json: { source: "crm", payload: { n: 1 }, email: "a@example.com" } });
    await call("POST", "/v0/prospect_logs", { json: { source: "crm", payload: { n: 2 }, email: "b@example.com" } });
    await call("POST", "/v0/prospect_logs", { key: KEY_B, json: { source: "crm", payload: {} } });
    const prospects = await call("GET", "/__mock/prospects");
    expect(prospects.body.data.map((p: { email: string }) => p.email)).toEqual(["a@example.com", "b@example.com"]);
    const logs = await call("GET", "/__mock/prospect_logs");
    expect(logs.body.data.map((l: { payload: unknown }) => l.payload)).toEqual([{ n: 1 }, { n: 2 }]);
    const ofOne = await call("GET", `/__mock/prospect_logs?prospectId=${first.body.prospectId}`);
    expect(ofOne.body.data).toHaveLength(1);
    const requests = await call("GET", "/__mock/requests");
    expect(requests.body.data.map((r: { status: number; path: string }) => [r.status, r.path])).toEqual([
      [201, "/v0/prospect_logs"],
      [201, "/v0/prospect_logs"],
    ]);
    expect(JSON.stringify(requests.body)).not.toContain(KEY_A);
  });

  it("an unknown query parameter is a 400 naming it", async () => {
    const answer = await call("GET", "/__mock/prospect_logs?prospect=x");
    expectProblem(answer, 400, "invalid_request");
    expect(answer.body.errors).toEqual([expect.objectContaining({ pointer: "/prospect", code: "unknown_field" })]);
  });
});

describe("faults through the control API", () => {
  it("a 429 for the next createProspectLog call, then normal again; list and clear", async () => {
    const armed = await call("POST", "/__mock/faults", { json: { kind: "status", status: 429, operation: "createProspectLog", retryAfter: 7 } });
    expect(armed).toMatchObject({ status: 201, body: { data: [{ operation: "createProspectLog", remaining: 1 }] } });
    expect((await call("GET", "/v0/page_groups/x/pages/y")).status).toBe(404);
    const limited = await call("POST", "/v0/prospect_logs", { json: { source: "crm", payload: {} } });
    expectProblem(limited, 429, "rate_limited");
    expect(limited.headers.get("retry-after")).toBe("7");
    expect((await call("POST", "/v0/prospect_logs", { json: { source: "crm", payload: {} } })).status).toBe(201);
    await call("POST", "/__mock/faults", { json: { kind: "latency", ms: 5, times: null } });
    expect((await call("GET", "/__mock/faults")).body.data).toEqual([{ fault: { kind: "latency", ms: 5 }, operation: "all", remaining: null }]);
    expect((await call("DELETE", "/__mock/faults")).body).toEqual({ data: [] });
  });

  it("a dropped connection makes the client's fetch reject", async () => {
    await call("POST", "/__mock/faults", { json: { kind: "network-error" } });
    await expect(call("GET", "/v0/page_groups/x/pages/y")).rejects.toThrow(TypeError);
  });

  it("a malformed body: the status of the processed request, a body that is not JSON", async () => {
    await call("POST", "/__mock/faults", { json: { kind: "malformed-body", operation: "getPage" } });
    const response = await fetch(`${server.url}/v0/page_groups/x/pages/y`, { headers: { "x-api-key": KEY_A } });
    expect(response.status).toBe(404);
    await expect(response.clone().json()).rejects.toThrow(SyntaxError);
  });
});

describe("reset", () => {
  it("restores the fixtures and empties the log", async () => {
    await call("POST", "/v0/prospect_logs", { json: { source: "crm", payload: {} } });
    expect(await call("POST", "/__mock/reset")).toMatchObject({ status: 200, body: { reset: true } });
    expect((await call("GET", "/__mock/prospect_logs")).body.data).toEqual([]);
    expect((await call("GET", "/__mock/requests")).body.data).toEqual([]);
    expect((await call("GET", "/v0/page_groups/pagegroup_b/pages/page_b", { key: KEY_B })).status).toBe(200);
  });
});

describe("faults belong to the tenant that armed them, and can aim at one request", () => {
  it("a fault armed with tenant B's key answers B's requests only; A's list and clear never see it", async () => {
    await call("POST", "/__mock/faults", { key: KEY_B, json: { kind: "status", status: 503, times: null } });
    expect((await call("GET", "/v0/page_groups/pagegroup_b/pages/page_b")).status).toBe(404);
    expect((await call("GET", "/__mock/faults")).body).toEqual({ data: [] });
    expect((await call("DELETE", "/__mock/faults")).body).toEqual({ data: [] });
    expectProblem(await call("GET", "/v0/page_groups/pagegroup_b/pages/page_b", { key: KEY_B }), 503, "internal_error");
    expect((await call("DELETE", "/__mock/faults", { key: KEY_B })).body).toEqual({ data: [] });
    expect((await call("GET", "/v0/page_groups/pagegroup_b/pages/page_b", { key: KEY_B })).status).toBe(200);
  });

  it("match: only the create from the named source fails; the pending fault shows its match", async () => {
    const fault = { kind: "status", status: 503, operation: "createProspectLog", match: { source: "crm" } };
    const armed = await call("POST", "/__mock/faults", { json: fault });
    expect(armed.body.data).toEqual([
      { fault: { kind: "status", status: 503, retryAfterSeconds: null }, operation: "createProspectLog", match: { source: "crm" }, remaining: 1 },
    ]);
    expect((await call("POST", "/v0/prospect_logs", { json: { source: "web", payload: {} } })).status).toBe(201);
    expectProblem(await call("POST", "/v0/prospect_logs", { json: { source: "crm", payload: {} } }), 503, "internal_error");
    expect((await call("GET", "/__mock/faults")).body).toEqual({ data: [] });
  });

  it.each([
    ["a field the operation does not have", { operation: "getPage", match: { source: "crm" } }, [["/match/source", "invalid_value"]]],
    ["an object body field", { operation: "createProspectLog", match: { payload: "x" } }, [["/match/payload", "invalid_value"]]],
    ["a path parameter given a number", { operation: "getPage", match: { pageId: 7 } }, [["/match/pageId", "invalid_value"]]],
    ["a match without an operation", { match: { pageId: "page_b" } }, [["/match", "invalid_value"]]],
    ["a match value that is an object", { operation: "getPage", match: { pageId: { id: "x" } } }, [["/match/pageId", "invalid"]]],
  ])("%s: 400 naming the field, nothing armed", async (_, scope, errors) => {
    const answer = await call("POST", "/__mock/faults", { json: { kind: "status", status: 503, ...scope } });
    expectProblem(answer, 400, "invalid_request");
    expect(answer.body.errors.map((error: { pointer: string; code: string }) => [error.pointer, error.code])).toEqual(errors);
    expect((await call("GET", "/__mock/faults")).body).toEqual({ data: [] });
  });
});

describe("tenants for one test: POST /__mock/tenants", () => {
  it("any valid key gets a new tenant and a new random key that reaches only that tenant", async () => {
    expectProblem(await call("POST", "/__mock/tenants", { key: null }), 401, "missing_api_key");
    const made = await call("POST", "/__mock/tenants");
    expect(made).toMatchObject({
      status: 201,
      body: { tenantId: expect.stringMatching(/^tenant_/), apiKey: expect.stringMatching(/^key_[0-9a-f]{32}$/) },
    });
    const { tenantId, apiKey } = made.body;
    expect((await call("POST", "/__mock/tenants")).body.apiKey).not.toBe(apiKey);
    expect((await call("GET", "/v0/page_groups/pagegroup_b/pages/page_b", { key: apiKey })).status).toBe(404);
    expect((await call("POST", "/v0/prospect_logs", { key: apiKey, json: { source: "crm", payload: {} } })).status).toBe(201);
    expect(server.api.state.prospectLogs.list({ tenantId })).toHaveLength(1);
    expect((await call("GET", "/__mock/prospect_logs", { key: apiKey })).body.data).toHaveLength(1);
    expect((await call("GET", "/__mock/prospect_logs")).body.data).toEqual([]);
    expect((await call("GET", "/__mock/requests", { key: apiKey })).body.data.map((entry: { status: number }) => entry.status)).toEqual([404, 201]);
  });

  it("a reset with the tenant's key resets that tenant only; ?scope=server resets every tenant and removes the made ones", async () => {
    const { apiKey } = (await call("POST", "/__mock/tenants")).body;
    await call("POST", "/v0/prospect_logs", { key: apiKey, json: { source: "crm", payload: {} } });
    await call("POST", "/v0/prospect_logs", { json: { source: "crm", payload: {} } });
    expect(await call("POST", "/__mock/reset", { key: apiKey })).toMatchObject({ status: 200, body: { reset: true, scope: "tenant" } });
    expect((await call("GET", "/__mock/prospect_logs", { key: apiKey })).body.data).toEqual([]);
    expect((await call("GET", "/__mock/prospect_logs")).body.data).toHaveLength(1);
    expect(await call("POST", "/__mock/reset?scope=server")).toMatchObject({ status: 200, body: { reset: true, scope: "server" } });
    expect((await call("GET", "/__mock/prospect_logs")).body.data).toEqual([]);
    expectProblem(await call("GET", "/__mock/prospect_logs", { key: apiKey }), 401, "invalid_api_key");
    expectProblem(await call("POST", "/__mock/reset?scope=everything"), 400, "invalid_request");
  });
});

describe("validation like the API's own", () => {
  it.each([
    ["an unknown field", "/__mock/pages", { customname: "x" }, [["/customname", "unknown_field"]]],
    [
      "wrong types, every field at once",
      "/__mock/pages",
      { customName: 1, computedName: null },
      [
        ["/customName", "invalid_type"],
        ["/computedName", "invalid_type"],
      ],
    ],
    ["a missing pageId", "/__mock/page_versions", {}, [["/pageId", "required"]]],
    ["a URL that is not http(s)", "/__mock/webhook_subscriptions", { url: "ftp://example.com" }, [["/url", "invalid_format"]]],
    ["an empty events list", "/__mock/webhook_subscriptions", { url: "https://example.com", events: [] }, [["/events", "events_empty"]]],
    ["a fault status out of range", "/__mock/faults", { kind: "status", status: 200 }, [["/status", "too_small"]]],
    ["an unknown fault kind", "/__mock/faults", { kind: "explode" }, [["/kind", "invalid_value"]]],
    ["a page group that does not exist", "/__mock/pages", { pageGroupId: "pagegroup_nope" }, [["/pageGroupId", "not_found"]]],
    ["a taken ID", "/__mock/page_groups", { id: "pagegroup_docs" }, [["/id", "duplicate"]]],
  ] as const)("%s: 400 with every failing field", async (_, path, json, expected) => {
    await call("POST", "/__mock/page_groups", { json: { id: "pagegroup_docs" } });
    const before = server.api.state.snapshot();
    const answer = await call("POST", path, { json });
    expectProblem(answer, 400, "invalid_request");
    expect(answer.body.errors.map((e: { pointer: string; code: string }) => [e.pointer, e.code])).toEqual(expected);
    expect(server.api.state.snapshot()).toBe(before);
  });

  // Numbers say numbers, enums list what they allow (issue 16.5, 16.6)
  it.each([
    [{ kind: "status", status: 200 }, "status must be at least 400"],
    [{ kind: "status", status: 600 }, "status must be at most 599"],
    [{ kind: "status", status: 503, times: 0 }, "times must be at least 1"],
    [{ kind: "latency", ms: 600_001 }, "ms must be at most 600000"],
    [{ kind: "boom" }, 'kind must be one of "status", "latency", "network-error", "malformed-body"'],
    [
      { kind: "status", status: 503, operation: "getPages" },
      `operation must be one of ${["all", ...OPERATIONS].map((name) => JSON.stringify(name)).join(", ")}`,
    ],
  ])("a fault %j: the detail reads %j", async (json, detail) => {
    const answer = await call("POST", "/__mock/faults", { json });
    expectProblem(answer, 400, "invalid_request");
    expect(answer.body.errors.map((e: { detail: string }) => e.detail)).toEqual([detail]);
  });

  it.each([
    ["malformed JSON", { raw: "{", contentType: "application/json" }, 400, "invalid_request"],
    ["a body that is not JSON", { raw: "id=x", contentType: "application/x-www-form-urlencoded" }, 415, "unsupported_media_type"],
    ["a body over 1 MiB", { raw: `{"id":"${"x".repeat(1024 * 1024)}"}`, contentType: "application/json" }, 413, "payload_too_large"],
  ] as const)("%s: %i", async (_, options, status, code) => {
    expectProblem(await call("POST", "/__mock/page_groups", options), status, code);
  });
});

describe("authentication, tenancy and routes", () => {
  it.each([
    ["no key", null, 401, "missing_api_key"],
    ["an unknown key", "nope", 401, "invalid_api_key"],
  ] as const)("%s: %i before anything else", async (_, key, status, code) => {
    expectProblem(await call("POST", "/__mock/nothing", { key, json: {} }), status, code);
  });

  it("another tenant's page version is a 404, exactly like a missing one", async () => {
    const other = await call("POST", "/__mock/page_versions/version_b/publish");
    const missing = await call("POST", "/__mock/page_versions/version_missing/publish");
    expectProblem(other, 404, "not_found");
    expect(other.body.detail.replace("version_b", "X")).toBe(missing.body.detail.replace("version_missing", "X"));
    expect((await call("POST", "/__mock/page_versions", { json: { pageId: "page_b" } })).body.errors[0]).toMatchObject({
      pointer: "/pageId",
      code: "not_found",
    });
  });

  it("another tenant's requests and data are not listed", async () => {
    await call("POST", "/v0/prospect_logs", { key: KEY_B, json: { source: "crm", payload: {} } });
    expect((await call("GET", "/__mock/requests")).body.data).toEqual([]);
    expect((await call("GET", "/__mock/prospect_logs")).body.data).toEqual([]);
    expect((await call("GET", "/__mock/requests", { key: KEY_B })).body.data).toHaveLength(1);
  });

  it("an unknown control path is a 404, a known one with another method a 405 with Allow", async () => {
    expectProblem(await call("GET", "/__mock/nothing"), 404, "not_found");
    const wrong = await call("PUT", "/__mock/faults");
    expectProblem(wrong, 405, "method_not_allowed");
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, POST, DELETE");
  });
});

// Issue 32: the control document states exactly what the server does; every answer this suite received is one it describes.
const watched = watchControlAnswers();
describe("the control API's OpenAPI document", () => {
  it("describes every answer this suite received from a control route: its status, media type and body", async () => {
    await watched.settled();
    const { problems, checked } = undescribedAnswers(watched.answers);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });
});
