/**
 * Determinism and isolation: a seed and a clock reproduce every ID, secret and timestamp; a reset
 * starts over; a rejected request never shifts later IDs; two mocks never share anything.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, type MockApi } from "../../mock/index.js";
import { verifyWebhook } from "../../src/index.js";

const T0 = Date.parse("2024-02-29T12:00:00.000Z");
const KEY = "pk_test_determinism";

/** A fixed scenario through HTTP and the state API; returns everything generated. */
async function scenario(api: MockApi, options: { rejectFirst?: boolean } = {}) {
  const post = (body: unknown) =>
    api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  if (options.rejectFirst) await post({ source: "" });
  const responses = [await post({ source: "a", payload: {} }), await post({ source: "b", payload: {}, email: "x@y.co" })];
  const logs = await Promise.all(responses.map((r) => r.json()));
  const page = api.state.pages.create();
  const subscription = api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/h" });
  return { logs, page, subscription, snapshot: api.state.snapshot() };
}

describe("determinism", () => {
  it("the same seed and clock give the same IDs, secrets, timestamps and state", async () => {
    const first = await scenario(createMockApi({ apiKeys: [KEY], seed: 1, now: () => T0 }));
    const second = await scenario(createMockApi({ apiKeys: [KEY], seed: 1, now: () => T0 }));
    expect(second).toEqual(first);
  });

  it("another seed gives other IDs and secrets", async () => {
    const first = await scenario(createMockApi({ apiKeys: [KEY], seed: 1, now: () => T0 }));
    const second = await scenario(createMockApi({ apiKeys: [KEY], seed: 2, now: () => T0 }));
    expect(second.logs[0].prospectLogId).not.toBe(first.logs[0].prospectLogId);
    expect(second.subscription.secret).not.toBe(first.subscription.secret);
  });

  it.each([
    [1, "1"],
    ["seed", "seed"],
  ])("seed %j and %j are the same seed", async (a, b) => {
    const first = await scenario(createMockApi({ apiKeys: [KEY], seed: a, now: () => T0 }));
    const second = await scenario(createMockApi({ apiKeys: [KEY], seed: b, now: () => T0 }));
    expect(second.snapshot).toBe(first.snapshot);
  });

  it("a reset replays the same IDs", async () => {
    const api = createMockApi({ apiKeys: [KEY], seed: 3, now: () => T0 });
    const first = await scenario(api);
    api.reset();
    expect(await scenario(api)).toEqual(first);
  });

  it("a rejected request does not shift the IDs of later resources (request IDs have their own stream)", async () => {
    const clean = await scenario(createMockApi({ apiKeys: [KEY], seed: 4, now: () => T0 }));
    const withRejection = await scenario(createMockApi({ apiKeys: [KEY], seed: 4, now: () => T0 }), { rejectFirst: true });
    expect(withRejection.snapshot).toBe(clean.snapshot);
  });

  it("IDs carry the clock's time and sort in creation order, also within one millisecond", async () => {
    let now = T0;
    const api = createMockApi({ apiKeys: [KEY], now: () => now });
    const ids = [api.state.pages.create().id, api.state.pages.create().id];
    now += 1000;
    ids.push(api.state.pages.create().id);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^page_[0-9a-z]{26}$/);
  });

  it("a clock at the epoch still gives seeded IDs (never the real time)", () => {
    const a = createMockApi({ seed: 9, now: () => 0 }).state.pages.create().id;
    const b = createMockApi({ seed: 9, now: () => 0 }).state.pages.create().id;
    expect(a).toBe(b);
  });

  it("a subscription's secret is a seeded whsec_ secret that signs deliveries the SDK verifies", async () => {
    const api = createMockApi({ seed: 5, now: () => T0 });
    const { secret } = api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/h" });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const received: Request[] = [];
    const withDelivery = createMockApi({
      seed: 5,
      now: () => T0,
      webhooks: { fetch: async (request) => (received.push(request), new Response(null, { status: 204 })) },
    });
    withDelivery.state.webhookSubscriptions.create({ url: "https://hooks.example.com/h" });
    withDelivery.state.forms.emit({ kind: "form.submitted", data: {} });
    await withDelivery.webhooks.runDue();
    const request = received[0]!;
    const event = await verifyWebhook({ secret, headers: request.headers, body: await request.text(), now: new Date(T0) });
    expect(event).toMatchObject({ type: "form.submitted", data: {} });
  });
});

describe("isolation: two mocks never share state", () => {
  it("a write to one is invisible to the other, with the same seed and keys", async () => {
    const one = createMockApi({ apiKeys: [KEY], seed: 1, now: () => T0 });
    const two = createMockApi({ apiKeys: [KEY], seed: 1, now: () => T0 });
    const before = two.state.snapshot();
    await scenario(one);
    one.faults.status(500, { times: Infinity });
    expect(two.state.snapshot()).toBe(before);
    expect(two.requests.size).toBe(0);
    expect(two.faults.pending()).toEqual([]);
  });

  it("a key of one mock is unknown to another, although both have a tenant of the same (seeded) ID", async () => {
    const one = createMockApi({ apiKeys: ["pk_one"], now: () => T0 });
    const two = createMockApi({ apiKeys: ["pk_two"], now: () => T0 });
    const response = await two.fetch(`${two.baseUrl}/v0/page_groups/g/pages/p`, { headers: { "x-api-key": "pk_one" } });
    expect(response.status).toBe(401);
    expect(one.state.tenants.list()[0]!.id).toBe(two.state.tenants.list()[0]!.id);
  });

  it("reset clears faults, the request log and data added since creation, and re-runs fixtures", async () => {
    const api = createMockApi({ apiKeys: [KEY], now: () => T0, fixtures: (state) => state.pages.create({ id: "page_fixture" }) });
    const initial = api.state.snapshot();
    await scenario(api);
    api.faults.latency(10, { times: Infinity });
    api.state.apiKeys.revoke(KEY);
    api.reset();
    expect(api.state.snapshot()).toBe(initial);
    expect(api.faults.pending()).toEqual([]);
    expect(api.requests.size).toBe(0);
    expect(api.state.pages.get("page_fixture")).toBeDefined();
    expect(api.webhooks.list()).toEqual([]);
  });
});
