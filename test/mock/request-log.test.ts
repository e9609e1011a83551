/**
 * The core's request log: it records the tenant of every request and keeps at most
 * `retainedRequests` entries (the latest), so the adapters need no copy of their own.
 */
import { describe, expect, it } from "vitest";
import { createMockApi } from "../../mock/core.js";

const BASE = "https://log.test";
const get = (api: ReturnType<typeof createMockApi>, key: string | null, n = 0) =>
  api.fetch(`${BASE}/v0/page_groups/g/pages/p${n}`, { headers: key === null ? {} : { "x-api-key": key } });

describe("the request log records who called", () => {
  it.each([
    ["a known key", "key_a", "tenant_a"],
    ["another tenant's key", "key_b", "tenant_b"],
    ["an unknown key", "key_unknown", null],
    ["no key", null, null],
  ] as const)("%s: tenantId %s", async (_, key, tenantId) => {
    const api = createMockApi({ baseUrl: BASE, apiKeys: { key_a: "tenant_a", key_b: "tenant_b" } });
    await get(api, key);
    expect(api.requests.last()?.tenantId).toBe(tenantId);
  });

  it("a request answered by an injected fault still names its tenant", async () => {
    const api = createMockApi({ baseUrl: BASE, apiKeys: { key_a: "tenant_a" } });
    api.faults.status(503);
    await get(api, "key_a");
    expect(api.requests.last()).toMatchObject({ status: 503, tenantId: "tenant_a" });
  });
});

describe("the request log keeps the latest retainedRequests entries", () => {
  it.each([
    [1, 3],
    [5, 5],
    [5, 12],
    [10_000, 3],
  ])("a limit of %i after %i requests: the latest, oldest first", async (limit, sent) => {
    const api = createMockApi({ baseUrl: BASE, apiKeys: ["k"], retainedRequests: limit });
    for (let n = 0; n < sent; n++) await get(api, "k", n);
    const kept = Math.min(limit, sent);
    expect(api.requests.size).toBe(kept);
    expect(api.requests.list().map((entry) => entry.path)).toEqual(
      Array.from({ length: kept }, (_, i) => `/v0/page_groups/g/pages/p${sent - kept + i}`),
    );
  });

  it.each([0, -1, 1.5, Number.NaN])("a limit of %s is refused at creation (TypeError)", (limit) => {
    expect(() => createMockApi({ retainedRequests: limit })).toThrow(TypeError);
  });
});

describe("the request log lists entries in the order they were answered", () => {
  // Each tenant's entries (and those no known key made) are kept apart and trimmed in batches:
  // a listing that merges them must still give the order of the requests, across trims.
  it.each([
    [2, 9],
    [3, 14],
    [10_000, 9],
  ])("a limit of %i after %i requests alternating two tenants and no key", async (limit, sent) => {
    const api = createMockApi({ baseUrl: BASE, apiKeys: { key_a: "tenant_a", key_b: "tenant_b" }, retainedRequests: limit });
    const keys = ["key_a", "key_b", null] as const;
    for (let n = 0; n < sent; n++) await get(api, keys[n % 3]!, n);
    const kept = (key: string | null) =>
      Array.from({ length: sent }, (_, n) => n)
        .filter((n) => keys[n % 3] === key)
        .slice(-limit);
    const expected = [...kept("key_a"), ...kept("key_b"), ...kept(null)].sort((a, b) => a - b);
    expect(api.requests.list().map((entry) => entry.path)).toEqual(expected.map((n) => `/v0/page_groups/g/pages/p${n}`));
    expect(api.requests.last()?.path).toBe(`/v0/page_groups/g/pages/p${sent - 1}`);
  });
});
