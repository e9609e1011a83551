/**
 * `api.changes`: what a live view hears. A listener hears its own tenant only; an API request that
 * changed the tenant's data is followed by `state`, one that wrote nothing is not; a reset is heard
 * by every tenant; unsubscribing stops it; a throwing listener harms nobody.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, type MockChange } from "../../mock/core.js";

const KEYS = { key_a: "tenant_a", key_b: "tenant_b" };

function listen(api: ReturnType<typeof createMockApi>, tenantId: string) {
  const heard: MockChange[] = [];
  const stop = api.changes.subscribe(tenantId, (change) => heard.push(change));
  return { heard, stop };
}

const createLog = (api: ReturnType<typeof createMockApi>, key: string) =>
  api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ source: "crm", payload: {} }),
  });

describe("api.changes", () => {
  it("a request is heard by its own tenant only, with the logged entry, then the change of its data", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    const [a, b] = [listen(api, "tenant_a"), listen(api, "tenant_b")];
    await createLog(api, "key_a");
    expect(a.heard).toEqual([{ kind: "request", request: api.requests.last() }, { kind: "state" }]);
    expect(b.heard).toEqual([]);
  });

  // Issue 34.11: docs/server.md promised `change` after an API write; only `request` came.
  describe("an API request is followed by state exactly when it changed the caller's data", () => {
    type Api = ReturnType<typeof createMockApi>;
    const call = (api: Api, method: string, path: string, body?: unknown) =>
      api.fetch(`${api.baseUrl}${path}`, {
        method,
        headers: { "x-api-key": "key_a", "content-type": "application/json" },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    const LOG = { source: "crm", payload: {}, email: "ada@example.com", idempotencyKey: "same-key" };
    const createTheLog = (api: Api) => call(api, "POST", "/v0/prospect_logs", LOG);
    const nothing = () => {};
    it.each<[string, boolean, (api: Api) => unknown, (api: Api) => unknown]>([
      ["a new prospect log", true, nothing, createTheLog],
      ["an idempotent replay (nothing written)", false, createTheLog, createTheLog],
      ["an invalid body (400)", false, nothing, (api) => call(api, "POST", "/v0/prospect_logs", { source: "" })],
      ["a read (GET page)", false, nothing, (api) => call(api, "GET", "/v0/page_groups/pagegroup_a/pages/page_a")],
      [
        "a PATCH that changes the subscription",
        true,
        nothing,
        (api) => call(api, "PATCH", "/v0/webhook_subscriptions/webhooksubscription_a", { active: false }),
      ],
      [
        "a PATCH of an unknown subscription (404)",
        false,
        nothing,
        (api) => call(api, "PATCH", "/v0/webhook_subscriptions/webhooksubscription_zz", { active: false }),
      ],
      ["a 503 fault (never processed)", false, (api) => api.faults.status(503), createTheLog],
      [
        "a dropped connection after processing (the write happened)",
        true,
        (api) => api.faults.networkError({ afterProcessing: true }),
        (api) => createTheLog(api).catch(() => {}),
      ],
    ])("%s: followed by state: %s", async (_, changed, before, act) => {
      const api = createMockApi({ apiKeys: KEYS });
      api.state.pageGroups.create({ tenantId: "tenant_a", id: "pagegroup_a" });
      api.state.pages.create({ tenantId: "tenant_a", id: "page_a", pageGroupId: "pagegroup_a" });
      api.state.webhookSubscriptions.create({ tenantId: "tenant_a", id: "webhooksubscription_a", url: "https://example.com/hook" });
      await before(api);
      const a = listen(api, "tenant_a");
      await act(api);
      expect(a.heard.map((change) => change.kind)).toEqual(changed ? ["request", "state"] : ["request"]);
    });
  });

  it("a request refused before authentication is heard by nobody; one refused by a fault, by its key's tenant", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    const a = listen(api, "tenant_a");
    await createLog(api, "wrong_key");
    expect(a.heard).toEqual([]);
    api.faults.status(503);
    await createLog(api, "key_a");
    expect(a.heard.map((change) => change.kind === "request" && change.request.status)).toEqual([503]);
  });

  it("a webhook event is heard by the tenant whose data changed", () => {
    const api = createMockApi({ apiKeys: KEYS });
    const [a, b] = [listen(api, "tenant_a"), listen(api, "tenant_b")];
    const page = api.state.pages.create({ tenantId: "tenant_b" });
    api.state.pageVersions.create({ pageId: page.id, tenantId: "tenant_b" });
    expect(b.heard).toEqual([{ kind: "event", type: "page.version.created" }]);
    expect(a.heard).toEqual([]);
  });

  it("a reset is heard by every tenant; after unsubscribing, nothing is", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    const [a, b] = [listen(api, "tenant_a"), listen(api, "tenant_b")];
    api.reset();
    expect([a.heard, b.heard]).toEqual([[{ kind: "reset" }], [{ kind: "reset" }]]);
    a.stop();
    await createLog(api, "key_a");
    api.reset();
    expect(a.heard).toHaveLength(1);
  });

  it("a listener that throws does not stop the others nor the answer", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    api.changes.subscribe("tenant_a", () => {
      throw new Error("listener bug");
    });
    const a = listen(api, "tenant_a");
    const response = await createLog(api, "key_a");
    expect(response.status).toBe(201);
    expect(a.heard.map((change) => change.kind)).toEqual(["request", "state"]);
  });

  it("a listener that subscribes again when it hears a reset is told of that reset once", () => {
    const api = createMockApi({ apiKeys: KEYS });
    let heard = 0;
    const follow = (tenantId: string): (() => void) => {
      const stop = api.changes.subscribe(tenantId, (change) => {
        if (change.kind !== "reset") return;
        heard++;
        stop();
        follow(tenantId);
      });
      return stop;
    };
    follow("tenant_a");
    api.reset();
    api.reset();
    expect(heard).toBe(2);
  });

  it("a change described lazily is described only when someone listens", () => {
    const api = createMockApi();
    let described = 0;
    api.changes.announce(null, () => (described++, { kind: "state" }));
    expect(described).toBe(0);
  });
});
