/**
 * A tenant's reset (`api.tenant(id).reset()`, `POST /__mock/reset` with its key): the tenant back
 * to what the fixtures gave it at the start, whatever time it is now (a generated tenant ID holds
 * the time it was made), its keys kept, its events and deliveries forgotten; every other tenant,
 * its data, faults, requests and deliveries, as it was.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, DEFAULT_API_KEY } from "../../mock/index.js";

/** A mock on a clock that moves: the default key's tenant (its ID generated) and a second tenant the fixtures make. */
function mockWithFixtures() {
  let now = Date.parse("2024-02-29T12:00:00.000Z");
  const api = createMockApi({
    now: () => now,
    webhooks: { fetch: async () => new Response(null, { status: 500 }) },
    fixtures(state) {
      state.pageGroups.create({ id: "pagegroup_1" });
      state.pages.create({ id: "page_1", pageGroupId: "pagegroup_1", customName: "Pricing" });
      state.webhookSubscriptions.create({ id: "whsub_1", url: "https://hooks.example.com/in" });
      state.tenants.create({ id: "tenant_other", apiKeys: ["other_key"] });
      state.webhookSubscriptions.create({ id: "whsub_other", url: "https://hooks.example.com/other", tenantId: "tenant_other" });
    },
  });
  return { api, later: () => (now += 60_000) };
}

const createLog = (api: ReturnType<typeof createMockApi>, key: string) =>
  api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ source: "crm", payload: {} }),
  });

describe("a tenant's reset", () => {
  it("a tenant whose ID was generated gets its fixtures back later on, with the same secrets; its key still works", async () => {
    const { api, later } = mockWithFixtures();
    const tenantId = api.state.defaultTenantId!;
    const secret = api.state.webhookSubscriptions.signingSecrets("whsub_1");
    api.state.pages.update("page_1", { customName: "Changed" });
    expect((await createLog(api, DEFAULT_API_KEY)).status).toBe(201);
    later();
    api.tenant(tenantId).reset();
    expect(api.state.pages.get("page_1", { tenantId })).toMatchObject({ customName: "Pricing" });
    expect(api.state.prospectLogs.list({ tenantId })).toEqual([]);
    expect(api.state.webhookSubscriptions.signingSecrets("whsub_1")).toEqual(secret);
    expect((await createLog(api, DEFAULT_API_KEY)).status).toBe(201);
  });

  it("over HTTP with the tenant's key: the same, and the other tenant keeps its data, faults and requests", async () => {
    const { api, later } = mockWithFixtures();
    expect((await createLog(api, "other_key")).status).toBe(201);
    api.tenant("tenant_other").faults.latency(1);
    later();
    const reset = await api.fetch(`${api.baseUrl}/__mock/reset`, { method: "POST", headers: { "x-api-key": DEFAULT_API_KEY } });
    expect(await reset.json()).toEqual({ reset: true, scope: "tenant" });
    expect(api.state.pages.list()).toHaveLength(1);
    expect(api.state.prospectLogs.list({ tenantId: "tenant_other" })).toHaveLength(1);
    expect(api.tenant("tenant_other").requests()).toHaveLength(1);
    expect(api.tenant("tenant_other").faults.pending()).toHaveLength(1);
  });

  it("forgets the tenant's events and deliveries (pending ones cancelled); the other tenant's stay", async () => {
    const { api } = mockWithFixtures();
    api.state.forms.emit({ kind: "form.submitted", data: { formId: "contact" } });
    api.state.forms.emit({ kind: "form.submitted", data: { formId: "contact" }, tenantId: "tenant_other" });
    expect(api.webhooks.list().map((delivery) => delivery.subscriptionId)).toEqual(["whsub_1", "whsub_other"]);
    api.tenant(api.state.defaultTenantId!).reset();
    expect(api.webhooks.list().map((delivery) => [delivery.subscriptionId, delivery.status])).toEqual([["whsub_other", "pending"]]);
    expect(api.webhooks.events().map((entry) => entry.tenantId)).toEqual(["tenant_other"]);
    expect((await api.webhooks.runDue()).map((attempt) => attempt.subscriptionId)).toEqual(["whsub_other"]);
  });

  it("an unknown tenant is a MockStateError, and changes nothing", () => {
    const { api } = mockWithFixtures();
    const before = api.state.snapshot();
    expect(() => api.tenant("tenant_none")).toThrow(/no tenant "tenant_none"/);
    expect(api.state.snapshot()).toBe(before);
  });
});
