/**
 * Issue 32's findings, one rule each, tried as a parallel CI fleet and a hostile neighbour would:
 * two tenants holding the same IDs, through `api.fetch` and the control API. Every rule failed on
 * the code before the issue: (1) webhook failure runs and deactivation crossed tenants, (2)
 * unsigned requests pushed a tenant's verified inbox messages out, (3) a reset kept the inbox,
 * (4) one tenant's inbox change was announced to every tenant, (5) a receive scanned every tenant,
 * (6) tenants had no end and no bound and any key reset the server, (7) one request log was
 * shared by every tenant.
 */
import { describe, expect, it, vi } from "vitest";
import { createMockApi, type MockApi, MockStateError } from "../../mock/core.js";
import { createRequestLog, type LoggedRequest } from "../../mock/observe/request-log.js";
import { WEBHOOK_DEACTIVATE_AFTER_MS } from "../../mock/webhooks/index.js";

const HOUR = 3_600_000;
const KEYS = { key_a: "tenant_a", key_b: "tenant_b" } as const;
/** The same subscription ID in both tenants, as a demo subscription or a shared fixture gives them. */
const SHARED_ID = "webhooksubscription_demo";

/** Two tenants with a subscription of the same ID each; `fails` names the hosts whose receiver answers 503. */
function twoTenants(fails: ReadonlySet<string>, extra: { url?: (tenant: string) => string } = {}) {
  let now = Date.parse("2024-02-29T12:00:00.000Z");
  let api: MockApi;
  api = createMockApi({
    apiKeys: KEYS,
    now: () => now,
    webhooks: {
      fetch: async (request) =>
        new URL(request.url).host === "api.prospectkit.test"
          ? api.fetch(request)
          : new Response(null, { status: fails.has(new URL(request.url).host) ? 503 : 204 }),
    },
  });
  for (const tenantId of Object.values(KEYS)) {
    api.state.webhookSubscriptions.create({ id: SHARED_ID, url: extra.url?.(tenantId) ?? `https://${tenantId}.example/hook`, tenantId });
  }
  return { api, advance: (ms: number) => (now += ms), now: () => now };
}

const call = (api: MockApi, method: string, path: string, key: string | null, init: RequestInit = {}) =>
  api.fetch(`${api.baseUrl}${path}`, { method, ...init, headers: { ...(key === null ? {} : { "x-api-key": key }), ...init.headers } });

/** Emits a form event to both tenants every 6 hours for `days`, running every due attempt each hour. */
async function deliverFor(t: ReturnType<typeof twoTenants>, days: number): Promise<void> {
  for (let hour = 0; hour < days * 24; hour++) {
    if (hour % 6 === 0) for (const tenantId of Object.values(KEYS)) t.api.state.forms.emit({ kind: "form.submitted", data: { hour }, tenantId });
    await t.api.webhooks.runDue();
    t.advance(HOUR);
  }
  await t.api.webhooks.runDue();
}

describe("1. webhook failure runs and deactivation are a tenant's own", () => {
  it.each([
    ["tenant A's failing subscription is deactivated after 5 days; B's, with the same ID and a working receiver, stays active", "tenant_a"],
    ["the same the other way round", "tenant_b"],
  ])("%s", async (_rule, failing) => {
    const t = twoTenants(new Set([`${failing}.example`]));
    const healthy = failing === "tenant_a" ? "tenant_b" : "tenant_a";
    await deliverFor(t, 6);
    expect(t.api.state.webhookSubscriptions.get(SHARED_ID, { tenantId: failing })?.active).toBe(false);
    expect(t.api.state.webhookSubscriptions.get(SHARED_ID, { tenantId: healthy })?.active).toBe(true);
    const healthyDeliveries = t.api.webhooks.list({ tenantId: healthy });
    expect(healthyDeliveries.length).toBeGreaterThan(20);
    expect(healthyDeliveries.filter((delivery) => delivery.status !== "succeeded")).toEqual([]);
  });

  it("the other tenant's successes do not end a failure run: 5 days of failures deactivate whatever the neighbour's receiver answers", async () => {
    const t = twoTenants(new Set(["tenant_a.example"]));
    await deliverFor(t, (WEBHOOK_DEACTIVATE_AFTER_MS + 12 * HOUR) / (24 * HOUR));
    expect(t.api.state.webhookSubscriptions.get(SHARED_ID, { tenantId: "tenant_a" })?.active).toBe(false);
  });

  it("a deactivation cancels the pending deliveries of its own tenant only", async () => {
    const t = twoTenants(new Set(["tenant_a.example", "tenant_b.example"]));
    t.api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_a" });
    await t.api.webhooks.runDue();
    t.advance(WEBHOOK_DEACTIVATE_AFTER_MS);
    t.api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_b" });
    t.api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_a" });
    await t.api.webhooks.runDue({ tenantId: "tenant_a" });
    expect(t.api.state.webhookSubscriptions.get(SHARED_ID, { tenantId: "tenant_a" })?.active).toBe(false);
    expect(t.api.webhooks.list({ tenantId: "tenant_b" }).map((delivery) => delivery.status)).toEqual(["pending"]);
    expect(t.api.state.webhookSubscriptions.get(SHARED_ID, { tenantId: "tenant_b" })?.active).toBe(true);
  });

  it("an attempt in flight when its tenant is reset ends unrecorded: it starts no failure run under the tenant's new subscription of the same ID", async () => {
    let release: (response: Response) => void = () => {};
    let now = Date.parse("2024-02-29T12:00:00.000Z");
    const api = createMockApi({
      apiKeys: KEYS,
      now: () => now,
      webhooks: { fetch: () => new Promise<Response>((resolve) => (release = resolve)) },
    });
    api.state.webhookSubscriptions.create({ id: SHARED_ID, url: "https://a.example/hook", tenantId: "tenant_a" });
    api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_a" });
    const run = api.webhooks.runDue();
    await vi.waitFor(() => expect(api.webhooks.inFlight()).toBe(1));
    api.tenant("tenant_a").reset();
    api.state.webhookSubscriptions.create({ id: SHARED_ID, url: "https://a.example/hook", tenantId: "tenant_a" });
    now += WEBHOOK_DEACTIVATE_AFTER_MS;
    release(new Response(null, { status: 503 }));
    expect(await run).toEqual([]);
    expect(api.webhooks.list({ tenantId: "tenant_a" })).toEqual([]);
    expect(api.state.webhookSubscriptions.get(SHARED_ID, { tenantId: "tenant_a" })?.active).toBe(true);
  });
});

/** Two tenants whose subscription of the same ID points at the built-in inbox, each under its own name. */
function inboxTenants() {
  return twoTenants(new Set(), { url: (tenantId) => `https://api.prospectkit.test/__mock/inbox/hooks-${tenantId}` });
}

const inboxOf = async (api: MockApi, key: string, name: string) =>
  ((await (await call(api, "GET", `/__mock/inbox/${name}`, key)).json()) as { data: { verification: { verified: boolean } }[] }).data;

const unsigned = (api: MockApi, name: string) =>
  call(api, "POST", `/__mock/inbox/${name}`, null, { headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "forged" }) });

describe("2. the inbox keeps a tenant's verified messages whatever number of unsigned ones arrive", () => {
  it("101 unsigned requests (no key needed) to tenant B's inbox name leave B's verified delivery in place", async () => {
    const { api } = inboxTenants();
    api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_b" });
    await api.webhooks.runDue();
    for (let i = 0; i < 101; i++) expect((await unsigned(api, "hooks-tenant_b")).status).toBe(400);
    const messages = await inboxOf(api, "key_b", "hooks-tenant_b");
    expect(messages.filter((message) => message.verification.verified)).toHaveLength(1);
    expect(messages.filter((message) => !message.verification.verified)).toHaveLength(100);
  });
});

describe("3. a tenant's reset forgets its inbox messages", () => {
  it("after POST /__mock/reset with B's key, B's inbox is empty; A's keeps its message", async () => {
    const { api } = inboxTenants();
    for (const tenantId of Object.values(KEYS)) api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId });
    await api.webhooks.runDue();
    expect(await inboxOf(api, "key_b", "hooks-tenant_b")).toHaveLength(1);
    expect((await call(api, "POST", "/__mock/reset", "key_b")).status).toBe(200);
    expect(await inboxOf(api, "key_b", "hooks-tenant_b")).toEqual([]);
    expect(await inboxOf(api, "key_a", "hooks-tenant_a")).toHaveLength(1);
  });
});

describe("4. an inbox change is announced to its own tenant only", () => {
  it("when B's webhook lands in B's inbox, A's change feed hears nothing and B's hears it", async () => {
    const { api } = inboxTenants();
    const heard: Record<string, string[]> = { tenant_a: [], tenant_b: [] };
    for (const tenantId of Object.values(KEYS)) api.changes.subscribe(tenantId, (change) => heard[tenantId]!.push(change.kind));
    api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_b" });
    heard["tenant_b"]!.length = 0;
    await api.webhooks.runDue();
    expect(heard["tenant_a"]).toEqual([]);
    expect(heard["tenant_b"]).toContain("state");
  });
});

describe("5. a receive looks up the subscriptions pointing at its name, never every tenant", () => {
  it("neither the tenants nor any tenant's subscriptions are listed to receive, signed or not", async () => {
    const { api } = inboxTenants();
    for (let i = 0; i < 50; i++) api.isolate();
    const tenants = vi.spyOn(api.state.tenants, "list");
    const subscriptions = vi.spyOn(api.state.webhookSubscriptions, "list");
    api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_b" });
    await api.webhooks.runDue();
    await unsigned(api, "hooks-tenant_b");
    await unsigned(api, "nobody-points-here");
    expect([tenants.mock.calls.length, subscriptions.mock.calls.length]).toEqual([0, 0]);
    expect(await inboxOf(api, "key_b", "hooks-tenant_b")).toHaveLength(2);
  });
});

describe("6. tenants made for a test end, and are bounded", () => {
  const tenantsRoute = (api: MockApi, key: string) => call(api, "POST", "/__mock/tenants", key);

  it("past maxTenants, POST /__mock/tenants answers 409 tenant_limit_reached (isolate() throws) until one is deleted", async () => {
    const api = createMockApi({ apiKeys: KEYS, maxTenants: 2 });
    const first = (await (await tenantsRoute(api, "key_a")).json()) as { tenantId: string; apiKey: string };
    expect((await tenantsRoute(api, "key_b")).status).toBe(201);
    const refused = await tenantsRoute(api, "key_a");
    expect({ status: refused.status, code: ((await refused.json()) as { code: string }).code }).toEqual({
      status: 409,
      code: "tenant_limit_reached",
    });
    expect(() => api.isolate()).toThrow(MockStateError);
    expect((await call(api, "DELETE", `/__mock/tenants/${first.tenantId}`, first.apiKey)).status).toBe(200);
    expect((await tenantsRoute(api, "key_a")).status).toBe(201);
  });

  it("the default limit is 10,000", () => {
    const api = createMockApi({ apiKeys: KEYS });
    for (let i = 0; i < 10_000; i++) api.isolate();
    expect(() => api.isolate()).toThrow(/10000 isolated tenants/);
  });

  it.each([
    ["its own key", "own", 200],
    ["a start key", "start", 200],
    ["another isolated tenant's key: not found, like any other tenant's resource", "neighbour", 404],
  ] as const)("DELETE /__mock/tenants/{id} with %s (%s): answers %i", async (_rule, who, status) => {
    const api = createMockApi({ apiKeys: KEYS });
    const target = api.isolate();
    const neighbour = api.isolate();
    await call(api, "POST", "/v0/prospect_logs", target.apiKey, {
      headers: { "content-type": "application/json" },
      body: '{"source":"crm","payload":{}}',
    });
    const key = who === "own" ? target.apiKey : who === "start" ? "key_a" : neighbour.apiKey;
    const answer = await call(api, "DELETE", `/__mock/tenants/${target.tenantId}`, key);
    expect(answer.status).toBe(status);
    const gone = status === 200;
    expect(api.state.tenants.get(target.tenantId) === undefined).toBe(gone);
    expect((await call(api, "GET", "/__mock/requests", target.apiKey)).status).toBe(gone ? 401 : 200);
    expect(api.state.tenants.get(neighbour.tenantId)).toBeDefined();
  });

  it("a start tenant is never deleted: 403 tenant_not_deletable to its own key, 404 to another start key", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    const own = await call(api, "DELETE", "/__mock/tenants/tenant_a", "key_a");
    expect([own.status, ((await own.json()) as { code: string }).code]).toEqual([403, "tenant_not_deletable"]);
    expect((await call(api, "DELETE", "/__mock/tenants/tenant_a", "key_b")).status).toBe(404);
    expect(api.state.tenants.get("tenant_a")).toBeDefined();
  });

  it("POST /__mock/reset?scope=server with a key POST /__mock/tenants made: 403 start_key_required naming the rule, nothing reset", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    const made = (await (await tenantsRoute(api, "key_a")).json()) as { apiKey: string };
    const other = api.isolate();
    api.state.pageGroups.create({ id: "pagegroup_kept", tenantId: "tenant_b" });
    const before = api.state.snapshot();
    const answer = await call(api, "POST", "/__mock/reset?scope=server", made.apiKey);
    const body = (await answer.json()) as { code: string; detail: string };
    expect([answer.status, body.code]).toEqual([403, "start_key_required"]);
    expect(body.detail).toMatch(/start key/);
    expect(api.state.snapshot()).toBe(before);
    expect(api.state.tenants.get(other.tenantId)).toBeDefined();
    expect((await call(api, "POST", "/__mock/reset?scope=server", "key_b")).status).toBe(200);
  });

  it("in process: a tenant from isolate() or api.tenant() is disposable (Symbol.dispose, delete()): its data, key, faults and requests are gone; deleting twice does nothing", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    const tenant = api.isolate();
    api.state.pageGroups.create({ id: "pagegroup_1", tenantId: tenant.tenantId });
    tenant.faults.latency(1, { times: Infinity });
    tenant[Symbol.dispose]();
    expect(api.state.tenants.get(tenant.tenantId)).toBeUndefined();
    expect((await call(api, "GET", "/__mock/state", tenant.apiKey)).status).toBe(401);
    expect(() => tenant.delete()).not.toThrow();
    const again = api.isolate();
    api.tenant(again.tenantId).delete();
    expect(api.state.tenants.get(again.tenantId)).toBeUndefined();
    expect(() => api.tenant("tenant_a").delete()).toThrow(MockStateError);
  });
});

describe("7. each tenant's request log is its own", () => {
  it("tenant B's 1,000 requests (ten times what a tenant keeps) never push out tenant A's one create", async () => {
    const api = createMockApi({ apiKeys: KEYS, retainedRequests: 100 });
    await call(api, "POST", "/v0/prospect_logs", "key_a", { headers: { "content-type": "application/json" }, body: '{"source":"crm","payload":{}}' });
    for (let i = 0; i < 1_000; i++) await call(api, "GET", "/v0/page_groups/g/pages/p", "key_b");
    const own = (await (await call(api, "GET", "/__mock/requests", "key_a")).json()) as { data: LoggedRequest[] };
    expect(own.data.map((entry) => [entry.method, entry.status])).toEqual([["POST", 201]]);
    expect(api.tenant("tenant_b").requests()).toHaveLength(100);
  });

  it("reading one tenant's entries checks them against that tenant's keys and the start keys, never every key on the server", () => {
    const all = vi.fn(() => ["key_a", "key_b", "key_c"]);
    const of = vi.fn((tenantId: string) => (tenantId === "tenant_a" ? ["key_a"] : ["key_b"]));
    const log = createRequestLog({ all, of }, 10);
    const entry = (tenantId: string, body: unknown): LoggedRequest => ({
      requestId: "req_1",
      method: "POST",
      path: "/v0/prospect_logs",
      operation: "createProspectLog",
      status: 201,
      requestBody: body,
      receivedAt: "2024-02-29T12:00:00.000Z",
      durationMs: 1,
      tenantId,
    });
    log.record(entry("tenant_a", { note: "key_a" }));
    log.record(entry("tenant_b", { note: "key_b" }));
    expect(log.ofTenant("tenant_a", false).map((e) => e.requestBody)).toEqual(["[redacted]"]);
    expect(of).toHaveBeenCalledWith("tenant_a");
    expect(all).not.toHaveBeenCalled();
  });
});
