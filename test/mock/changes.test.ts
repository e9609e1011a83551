/**
 * `api.changes`: what a live view hears. A listener hears its own tenant only; a reset is heard by
 * every tenant; unsubscribing stops it; a throwing listener harms nobody.
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
  it("a request is heard by its own tenant only, with the logged entry", async () => {
    const api = createMockApi({ apiKeys: KEYS });
    const [a, b] = [listen(api, "tenant_a"), listen(api, "tenant_b")];
    await createLog(api, "key_a");
    expect(a.heard).toEqual([{ kind: "request", request: api.requests.last() }]);
    expect(b.heard).toEqual([]);
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
    expect(a.heard).toHaveLength(1);
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
