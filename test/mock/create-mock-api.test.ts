/**
 * `createMockApi`: its options (checked at creation, defaults), and `api.fetch` behaving like
 * fetch (any RequestInfo, rejections, abort).
 */
import { describe, expect, expectTypeOf, it, vi } from "vitest";
import { createMockApi, DEFAULT_API_KEY, DEFAULT_BASE_URL, type MockApi, type MockApiOptions } from "../../mock/core.js";

const T0 = Date.parse("2024-02-29T12:00:00.000Z");

describe("createMockApi options are checked at creation (TypeError)", () => {
  it.each([
    ["a relative baseUrl", { baseUrl: "/api" }],
    ["an ftp baseUrl", { baseUrl: "ftp://x.test" }],
    ["a baseUrl with a query", { baseUrl: "https://x.test/?a=1" }],
    ["a baseUrl with a fragment", { baseUrl: "https://x.test/#a" }],
    ["a seed that is an object", { seed: {} as unknown as number }],
    ["now not a function", { now: 5 as unknown as () => number }],
    ["now returning NaN", { now: () => Number.NaN }],
    ["now returning an invalid Date", { now: () => new Date("nope") }],
    ["now before 1970", { now: () => -1 }],
    ["now after 9999", { now: () => Date.parse("+010000-01-01T00:00:00.000Z") }],
    ["apiKeys null", { apiKeys: null as unknown as string[] }],
    ["an empty API key", { apiKeys: [""] }],
    ["an API key with a space", { apiKeys: ["a b"] }],
    ["an API key with a newline", { apiKeys: ["a\nb"] }],
    ["an API key of 1025 characters", { apiKeys: ["k".repeat(1025)] }],
    ["the same key twice", { apiKeys: ["k", "k"] }],
    ["an empty tenant ID", { apiKeys: { k: "" } }],
    ["fixtures not a function", { fixtures: 1 as unknown as () => void }],
    ["fixtures that seed an invalid record", { fixtures: (state) => state.pages.create({ customName: 5 as unknown as string }) }],
  ] satisfies [string, MockApiOptions][])("%s is refused", (_, options) => {
    expect(() => createMockApi(options)).toThrow(TypeError);
  });

  it("an error about a key never shows the key", () => {
    const key = "pk_live_secret value";
    const error = (() => {
      try {
        createMockApi({ apiKeys: [key] });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).not.toContain(key);
    expect(JSON.stringify(error)).not.toContain(key);
  });

  it.each([
    ["a Date", () => new Date(T0)],
    ["epoch milliseconds", () => T0],
    ["fractional milliseconds (floored)", () => T0 + 0.9],
  ])("now may return %s", async (_, now) => {
    const api = createMockApi({ now });
    expect(api.state.tenants.list()[0]?.createdAt).toBe("2024-02-29T12:00:00.000Z");
  });

  it("defaults: DEFAULT_API_KEY on one tenant, DEFAULT_BASE_URL, the real clock", async () => {
    const api = createMockApi();
    expect(api.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(api.state.tenants.list()).toHaveLength(1);
    const response = await api.fetch(`${DEFAULT_BASE_URL}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ source: "crm", payload: {} }),
    });
    expect(response.status).toBe(201);
    const createdAt = Date.parse(((await response.json()) as { createdAt: string }).createdAt);
    expect(Math.abs(createdAt - Date.now())).toBeLessThan(60_000);
  });

  it.each([
    ["a list of keys: one tenant with a generated ID", ["a", "b"], [["a", "b"]]],
    ["a map: one tenant per distinct ID, in order", { a: "t1", b: "t2", c: "t1" }, [["a", "c"], ["b"]]],
    ["an empty list: no tenant at all", [], []],
  ])("apiKeys as %s", async (_, apiKeys, groups) => {
    const api = createMockApi({ apiKeys });
    expect(api.state.tenants.list()).toHaveLength(groups.length);
    for (const keys of groups) {
      const tenants = await Promise.all(
        keys.map(async (key) => {
          const page = api.state.pages.create({ tenantId: api.state.tenants.list()[groups.indexOf(keys)]!.id });
          const res = await api.fetch(`${api.baseUrl}/v0/page_groups/${page.pageGroupId}/pages/${page.id}`, { headers: { "x-api-key": key } });
          return ((await res.json()) as { tenantId: string }).tenantId;
        }),
      );
      expect(new Set(tenants).size).toBe(1);
    }
  });

  it.each([
    ["https://api.example.test", "https://api.example.test"],
    ["https://api.example.test/", "https://api.example.test"],
    ["https://API.example.test:443/base//", "https://api.example.test/base"],
    ["http://localhost:8080/x/y/", "http://localhost:8080/x/y"],
  ])("baseUrl %s is served as %s", (baseUrl, served) => {
    expect(createMockApi({ baseUrl }).baseUrl).toBe(served);
  });

  it("types: createMockApi returns a MockApi whose fetch fits where fetch fits", () => {
    expectTypeOf(createMockApi).returns.toEqualTypeOf<MockApi>();
    expectTypeOf<MockApi["fetch"]>().toMatchTypeOf<(url: string, init: RequestInit) => Promise<Response>>();
    expectTypeOf<MockApi["fetch"]>().toMatchTypeOf<(request: Request) => Promise<Response>>();
  });

  it("a body as deep as allowed (64 levels) is checked for the key without overflowing the stack; a deeper one is never logged", async () => {
    const api = createMockApi({ apiKeys: ["pk_body_secret"] });
    const post = (levels: number) =>
      api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
        method: "POST",
        headers: { "x-api-key": "pk_body_secret", "content-type": "application/json" },
        body: `{"source":"crm","payload":{"deep":${"[".repeat(levels)}"pk_body_secret"${"]".repeat(levels)}}}`,
      });
    expect((await post(62)).status).toBe(201);
    expect(api.requests.last()?.requestBody).toBe("[redacted]");
    expect((await post(100_000)).status).toBe(400);
    expect(api.requests.last()?.requestBody).toBeUndefined();
  });
});

describe("api.fetch behaves like fetch", () => {
  const api = createMockApi({ now: () => T0 });
  const url = `${api.baseUrl}/v0/prospect_logs`;
  const init = {
    method: "POST",
    headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
    body: '{"source":"crm","payload":{}}',
  };

  it.each([
    ["a URL string and init", () => api.fetch(url, init)],
    ["a URL object and init", () => api.fetch(new URL(url), init)],
    ["a Request", () => api.fetch(new Request(url, init))],
    ["a Request and an init overriding it", () => api.fetch(new Request(url, { ...init, method: "PUT" }), init)],
  ])("accepts %s", async (_, call) => {
    expect((await call()).status).toBe(201);
  });

  it("is a plain function: it works unbound", async () => {
    const { fetch } = api;
    expect((await fetch(url, init)).status).toBe(201);
  });

  it("rejects with a TypeError for a relative URL, as fetch does", async () => {
    await expect(api.fetch("/v0/prospect_logs", init)).rejects.toThrow(TypeError);
  });

  it("an already aborted signal rejects with its reason and sends nothing", async () => {
    const before = api.requests.size;
    await expect(api.fetch(url, { ...init, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    expect(api.requests.size).toBe(before);
  });

  it("an abort while the answer waits rejects at once; the write still happens, as on a real server", async () => {
    api.faults.latency(200);
    const controller = new AbortController();
    const pending = api.fetch(url, { ...init, signal: controller.signal });
    setTimeout(() => controller.abort(new DOMException("gave up", "TimeoutError")), 20);
    await expect(pending).rejects.toMatchObject({ name: "TimeoutError" });
    const logs = api.state.prospectLogs.list().length;
    // The write lands when the answer's latency has passed: waited for, not slept for.
    await vi.waitFor(() => expect(api.state.prospectLogs.list().length).toBe(logs + 1), { timeout: 5_000 });
  });

  it("the core mock (prospectkit/mock/core) has no MSW handlers: it never needs msw", () => {
    expect("handlers" in api).toBe(false);
  });

  it("inspecting the mock never shows an API key", async () => {
    const keyed = createMockApi({ apiKeys: ["pk_test_very_secret"] });
    const { inspect } = await import("node:util");
    expect(inspect(keyed, { depth: 10, getters: true })).not.toContain("pk_test_very_secret");
    expect(JSON.stringify(keyed)).not.toContain("pk_test_very_secret");
    expect(keyed.state.snapshot()).not.toContain("pk_test_very_secret");
  });

  it("a body as deep as allowed (64 levels) is checked for the key without overflowing the stack; a deeper one is never logged", async () => {
    const api = createMockApi({ apiKeys: ["pk_body_secret"] });
    const post = (levels: number) =>
      api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
        method: "POST",
        headers: { "x-api-key": "pk_body_secret", "content-type": "application/json" },
        body: `{"source":"crm","payload":{"deep":${"[".repeat(levels)}"pk_body_secret"${"]".repeat(levels)}}}`,
      });
    expect((await post(62)).status).toBe(201);
    expect(api.requests.last()?.requestBody).toBe("[redacted]");
    expect((await post(100_000)).status).toBe(400);
    expect(api.requests.last()?.requestBody).toBeUndefined();
  });
});

describe("the request log never hands out an API key", () => {
  it.each([
    ["as a body field", { apiKey: "pk_body_secret" }],
    ["inside a string", { source: "crm pk_body_secret", payload: {} }],
    ["as an object key in the payload", { source: "crm", payload: { pk_body_secret: 1 } }],
  ])("a body in which a client wrongly put a key (%s) is withheld from list() and last()", async (_rule, body) => {
    const api = createMockApi({ apiKeys: ["pk_body_secret"] });
    await api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": "pk_body_secret", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(api.requests.size).toBe(1);
    expect(JSON.stringify(api.requests.list())).not.toContain("pk_body_secret");
    expect(api.requests.last()?.requestBody).toBe("[redacted]");
  });

  it("a body as deep as allowed (64 levels) is checked for the key without overflowing the stack; a deeper one is never logged", async () => {
    const api = createMockApi({ apiKeys: ["pk_body_secret"] });
    const post = (levels: number) =>
      api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
        method: "POST",
        headers: { "x-api-key": "pk_body_secret", "content-type": "application/json" },
        body: `{"source":"crm","payload":{"deep":${"[".repeat(levels)}"pk_body_secret"${"]".repeat(levels)}}}`,
      });
    expect((await post(62)).status).toBe(201);
    expect(api.requests.last()?.requestBody).toBe("[redacted]");
    expect((await post(100_000)).status).toBe(400);
    expect(api.requests.last()?.requestBody).toBeUndefined();
  });
});
