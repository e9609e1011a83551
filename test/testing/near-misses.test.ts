/**
 * "Why nothing matched": a 404 or 405 of the API names the route the request most likely meant
 * (one method or one path segment away), in its log entry (`nearMiss`) and its problem `detail`,
 * through `api.fetch`, MSW and the server alike, never echoing a key; a fault armed with a match
 * lists the requests to its operation that differed in a matched field (`nearMisses`), in
 * `pending()` and `GET /__mock/faults`; msw's unhandled-request message gets the nearest route.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createMockApi, type LoggedRequest, type MockApi, type NearMiss, unhandledRequests } from "../../mock/index.js";
import { type MockServer, mockServer, startMockServer } from "../../mock/server/index.js";
import { matchers } from "../../mock/vitest.js";

expect.extend(matchers);

const KEY = "key_alpha_0123456789";
const OTHER = "key_bravo_0123456789";
const KEYS = { [KEY]: "tenant_a", [OTHER]: "tenant_b" };
const BASE = "https://api.prospectkit.test";

const CREATE = { method: "POST", path: "/v0/prospect_logs", operation: "createProspectLog" } as const;
const GET_PAGE = { method: "GET", path: "/v0/page_groups/{page_group_id}/pages/{page_id}", operation: "getPage" } as const;
const UPDATE = { method: "PATCH", path: "/v0/webhook_subscriptions/{subscription_id}", operation: "updateWebhookSubscription" } as const;

/** [difference, method, path, status, the near miss (or none), what `detail` adds after its usual sentence] */
const ROUTING: readonly (readonly [string, string, string, number, NearMiss | undefined, string])[] = [
  [
    "one literal segment of a path without parameters",
    "POST",
    "/v0/prospect_log",
    404,
    { ...CREATE, differs: { kind: "segment", index: 2, sent: "prospect_log", wanted: "prospect_logs" } },
    ' Did you mean POST /v0/prospect_logs (createProspectLog)? Path segment 2 was "prospect_log", not "prospect_logs".',
  ],
  [
    "one literal segment between parameters",
    "GET",
    "/v0/page_groups/pg_1/page/p_1",
    404,
    { ...GET_PAGE, differs: { kind: "segment", index: 4, sent: "page", wanted: "pages" } },
    ' Did you mean GET /v0/page_groups/{page_group_id}/pages/{page_id} (getPage)? Path segment 4 was "page", not "pages".',
  ],
  [
    "the method of a path without parameters",
    "GET",
    "/v0/prospect_logs",
    405,
    { ...CREATE, differs: { kind: "method", sent: "GET", wanted: "POST" } },
    " Did you mean POST /v0/prospect_logs (createProspectLog)? The method was GET, not POST.",
  ],
  [
    "the method of a path with a parameter",
    "PUT",
    "/v0/webhook_subscriptions/ws_1",
    405,
    { ...UPDATE, differs: { kind: "method", sent: "PUT", wanted: "PATCH" } },
    " Did you mean PATCH /v0/webhook_subscriptions/{subscription_id} (updateWebhookSubscription)? The method was PUT, not PATCH.",
  ],
  [
    "a segment holding the caller's key is not echoed",
    "GET",
    `/v0/page_groups/pg_1/${KEY}/p_1`,
    404,
    { ...GET_PAGE, differs: { kind: "segment", index: 4, sent: "[redacted]", wanted: "pages" } },
    ' Did you mean GET /v0/page_groups/{page_group_id}/pages/{page_id} (getPage)? Path segment 4 was "[redacted]", not "pages".',
  ],
  ["two segments away: no near miss", "GET", "/v0/page_group/pg_1/page/p_1", 404, undefined, ""],
  ["a segment more: no near miss", "POST", "/v0/prospect_logs/extra", 404, undefined, ""],
  ["nothing like a route: no near miss", "GET", "/v0/health", 404, undefined, ""],
];

const USUAL: Record<number, (method: string) => string> = {
  404: () => "No API operation has this path.",
  405: (method) => `This path accepts ${method === "PUT" ? "PATCH" : "POST"} only.`,
};

/** Each way in: sends one request with the key, gives its answer and its log entry. */
const TRANSPORTS: readonly (readonly [
  string,
  () => Promise<{ send(method: string, path: string): Promise<[Response, LoggedRequest]>; close(): Promise<void> }>,
])[] = [
  [
    "api.fetch",
    async () => {
      const api = createMockApi({ apiKeys: KEYS });
      return {
        send: async (method, path) => [await api.fetch(`${api.baseUrl}${path}`, { method, headers: { "x-api-key": KEY } }), api.requests.last()!],
        close: async () => {},
      };
    },
  ],
  [
    "MSW",
    async () => {
      const api = createMockApi({ apiKeys: KEYS, baseUrl: BASE });
      const server = setupServer(...api.handlers);
      server.listen(unhandledRequests("error"));
      return {
        send: async (method, path) => [await fetch(`${BASE}${path}`, { method, headers: { "x-api-key": KEY } }), api.requests.last()!],
        close: async () => server.close(),
      };
    },
  ],
  [
    "the server",
    async () => {
      const server = await startMockServer({ port: 0, apiKeys: KEYS });
      return {
        send: async (method, path) => {
          const response = await fetch(`${server.url}${path}`, { method, headers: { "x-api-key": KEY } });
          const log = await (await fetch(`${server.url}/__mock/requests`, { headers: { "x-api-key": KEY } })).json();
          return [response, (log as { data: LoggedRequest[] }).data.at(-1)!];
        },
        close: () => server.close(),
      };
    },
  ],
];

describe.each(TRANSPORTS)("a 404 or 405 through %s names the route it most likely meant", (_name, start) => {
  let transport: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    transport = await start();
  });
  afterAll(() => transport.close());

  it.each(ROUTING)("%s: %s %s", async (_rule, method, path, status, nearMiss, added) => {
    const [response, entry] = await transport.send(method, path);
    const body = (await response.json()) as { detail: string };
    expect(response.status).toBe(status);
    expect(body.detail).toBe(`${USUAL[status]!(method)}${added}`);
    expect(body.detail).not.toContain(KEY);
    expect(entry.status).toBe(status);
    expect(entry.nearMiss).toEqual(nearMiss);
    expect(JSON.stringify([entry.nearMiss, entry.responseBody])).not.toContain(KEY);
  });
});

describe("msw's unhandled-request message within the mock's base URL", () => {
  const api = createMockApi({ apiKeys: KEYS, baseUrl: `${BASE}/api` });
  const server = setupServer(...api.handlers);
  beforeAll(() => server.listen(unhandledRequests("error", { within: `${BASE}/api` })));
  afterAll(() => server.close());

  it.each([
    [
      "a request one segment away from an operation: the route named beside msw's message",
      "/api/v1/prospect_logs",
      '[prospectkit] POST /v1/prospect_logs matched no operation of the mock. Did you mean POST /v0/prospect_logs (createProspectLog)? Path segment 1 was "v1", not "v0".',
    ],
    [
      "the key in the path is not echoed",
      `/api/${KEY}/prospect_logs`,
      '[prospectkit] POST /[redacted]/prospect_logs matched no operation of the mock. Did you mean POST /v0/prospect_logs (createProspectLog)? Path segment 1 was "[redacted]", not "v0".',
    ],
    ["nothing near: msw's message only", "/api/health", undefined],
  ])("%s", async (_rule, path, hint) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(fetch(`${BASE}${path}`, { method: "POST", headers: { "x-api-key": KEY } })).rejects.toThrow(TypeError);
      const printed = errors.mock.calls.map((args) => args.join(" "));
      expect(printed[0]).toMatch(/without a matching request handler/);
      expect(printed.slice(1)).toEqual(hint === undefined ? [] : [hint]);
    } finally {
      errors.mockRestore();
    }
  });
});

/** [difference, how the fault is armed, the requests (key, method, path, body), the near misses it lists] */
type Arming = Parameters<MockApi["faults"]["status"]>[1];
const FAULTS: readonly (readonly [string, Arming, readonly (readonly [string, string, string, unknown?])[], unknown[] | undefined])[] = [
  [
    "a path parameter",
    { operation: "getPage", match: { pageId: "page_2" } },
    [[KEY, "GET", "/v0/page_groups/pagegroup_1/pages/page_1"]],
    [{ field: "pageId", seen: "page_1", wanted: "page_2" }],
  ],
  [
    "a body field of another value",
    { operation: "createProspectLog", match: { source: "crm" } },
    [[KEY, "POST", "/v0/prospect_logs", { source: "web", payload: {} }]],
    [{ field: "source", seen: "web", wanted: "crm" }],
  ],
  [
    "a body field not sent",
    { operation: "createProspectLog", match: { email: "ada@example.com" } },
    [[KEY, "POST", "/v0/prospect_logs", { source: "web", payload: {} }]],
    [{ field: "email", wanted: "ada@example.com" }],
  ],
  [
    "a boolean field",
    { operation: "updateWebhookSubscription", match: { active: false } },
    [[KEY, "PATCH", "/v0/webhook_subscriptions/ws_1", { active: true }]],
    [{ field: "active", seen: true, wanted: false }],
  ],
  [
    "a value holding the caller's key is not shown",
    { operation: "createProspectLog", match: { source: "crm" } },
    [[KEY, "POST", "/v0/prospect_logs", { source: `x${KEY}`, payload: {} }]],
    [{ field: "source", seen: "[redacted]", wanted: "crm" }],
  ],
  [
    "another operation's request is no near miss",
    { operation: "createProspectLog", match: { source: "crm" } },
    [[KEY, "GET", "/v0/page_groups/pagegroup_1/pages/page_1"]],
    undefined,
  ],
  [
    "another tenant's request is no near miss",
    { operation: "createProspectLog", match: { source: "crm" } },
    [[OTHER, "POST", "/v0/prospect_logs", { source: "web", payload: {} }]],
    undefined,
  ],
];

describe("a fault armed with a match lists its near misses", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({
      port: 0,
      apiKeys: KEYS,
      fixtures(state) {
        for (const tenantId of ["tenant_a", "tenant_b"]) {
          state.pageGroups.create({ id: "pagegroup_1", tenantId });
          state.pages.create({ id: "page_1", pageGroupId: "pagegroup_1", tenantId });
        }
      },
    });
  });
  afterAll(() => server.close());
  beforeEach(() => server.api.reset());

  it.each(FAULTS)("%s: in api.faults.pending(), the tenant's, GET /__mock/faults and toHaveFiredAllFaults", async (_rule, arming, sends, misses) => {
    server.api.tenant("tenant_a").faults.status(503, arming);
    for (const [key, method, path, body] of sends) {
      await fetch(`${server.url}${path}`, {
        method,
        headers: { "x-api-key": key, "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      }).then((response) => response.arrayBuffer());
    }
    expect(server.api.faults.pending()[0]?.nearMisses).toEqual(misses);
    expect(server.api.tenant("tenant_a").faults.pending()[0]?.nearMisses).toEqual(misses);
    const listed = (await (await fetch(`${server.url}/__mock/faults`, { headers: { "x-api-key": KEY } })).json()) as {
      data: { nearMisses?: unknown }[];
    };
    expect(listed.data[0]?.nearMisses).toEqual(misses);
    const failure = await expect(mockServer(server.url, KEY))
      .toHaveFiredAllFaults()
      .then(
        () => "passed",
        (error: Error) => error.message,
      );
    expect(failure).toContain("Received 1 fault still armed:");
    for (const miss of (misses ?? []) as { field: string }[]) expect(failure).toContain(`near miss: ${miss.field} was `);
    expect(failure).not.toContain(KEY);
  });

  it("a fault that fired is no longer listed, its near misses with it; the latest five are kept", async () => {
    const tenant = server.api.tenant("tenant_a");
    tenant.faults.status(503, { operation: "getPage", match: { pageId: "page_9" } });
    for (let i = 0; i < 7; i++)
      await server.api.fetch(`${server.api.baseUrl}/v0/page_groups/pagegroup_1/pages/p_${i}`, { headers: { "x-api-key": KEY } });
    expect(tenant.faults.pending()[0]?.nearMisses?.map((miss) => miss.seen)).toEqual(["p_2", "p_3", "p_4", "p_5", "p_6"]);
    expect((await server.api.fetch(`${server.api.baseUrl}/v0/page_groups/pagegroup_1/pages/page_9`, { headers: { "x-api-key": KEY } })).status).toBe(
      503,
    );
    expect(tenant.faults.pending()).toEqual([]);
    expect(tenant).toHaveFiredAllFaults();
  });
});
