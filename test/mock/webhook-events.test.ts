/**
 * Which state changes emit which webhook events, to whom: page versions emit
 * page.version.created|processed|published, tests emit the form events, and the dispatcher's
 * deactivation after 5 days of failures turns a subscription inactive (updatedAt moves).
 * Delivery itself (signing, retries) is tested with the dispatcher in test/mock/webhooks.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, WEBHOOK_EVENT_KINDS } from "../../mock/index.js";

const T0 = Date.parse("2024-02-29T12:00:00.000Z");

function setup(status = 204) {
  let now = T0;
  const received: { url: string; body: { type: string; data: Record<string, unknown> } }[] = [];
  const api = createMockApi({
    apiKeys: { pk_a: "tenant_a", pk_b: "tenant_b" },
    now: () => now,
    webhooks: {
      fetch: async (request) => {
        received.push({ url: request.url, body: (await request.json()) as never });
        return new Response(null, { status });
      },
    },
  });
  return { api, received, advance: (ms: number) => (now += ms) };
}

describe("webhook events caused by state changes", () => {
  it("a page version's life emits created, processed, published with the version's data", async () => {
    const { api, received } = setup();
    api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/all" });
    const page = api.state.pages.create();
    const version = api.state.pageVersions.create({ pageId: page.id });
    api.state.pageVersions.process(version.id, { computedName: "Named" });
    api.state.pageVersions.publish(version.id);
    await api.webhooks.runDue();
    const ids = { pageGroupId: page.pageGroupId, pageId: page.id, versionId: version.id, versionNumber: 1 };
    expect(received.map((r) => r.body)).toMatchObject([
      { type: "page.version.created", data: { ...ids, createdAt: "2024-02-29T12:00:00.000Z" } },
      { type: "page.version.processed", data: { ...ids, computedName: "Named", processedAt: "2024-02-29T12:00:00.000Z" } },
      { type: "page.version.published", data: { ...ids, publishedAt: "2024-02-29T12:00:00.000Z" } },
    ]);
  });

  it.each(WEBHOOK_EVENT_KINDS.filter((kind) => kind.startsWith("form.")).map((kind) => [kind]))(
    "state.forms.emit sends %s with the given data",
    async (kind) => {
      const { api, received } = setup();
      api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/all" });
      api.state.forms.emit({ kind: kind as "form.submitted", data: { formId: "form_1" } });
      await api.webhooks.runDue();
      expect(received.map((r) => r.body)).toMatchObject([{ type: kind, data: { formId: "form_1" } }]);
    },
  );

  it("only active subscriptions of the same tenant that want the kind receive it", async () => {
    const { api, received } = setup();
    api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/all" });
    api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/wants", events: ["form.submitted"] });
    api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/other-kind", events: ["form.enriched"] });
    api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/inactive", active: false });
    api.state.webhookSubscriptions.create({ tenantId: "tenant_b", url: "https://hooks.example.com/tenant-b" });
    api.state.forms.emit({ kind: "form.submitted", data: {} });
    await api.webhooks.runDue();
    expect(received.map((r) => r.url).sort()).toEqual(["https://hooks.example.com/all", "https://hooks.example.com/wants"]);
  });

  it("a subscription deactivated over HTTP receives nothing afterwards", async () => {
    const { api, received } = setup();
    const sub = api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/all" });
    await api.fetch(`${api.baseUrl}/v0/webhook_subscriptions/${sub.id}`, {
      method: "PATCH",
      headers: { "x-api-key": "pk_a", "content-type": "application/json" },
      body: JSON.stringify({ active: false }),
    });
    api.state.forms.emit({ kind: "form.enriched", data: {} });
    await api.webhooks.runDue();
    expect(received).toEqual([]);
  });

  it("failing deliveries for 5 days deactivate the subscription; its updatedAt moves", async () => {
    const { api, advance } = setup(500);
    const sub = api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/down" });
    api.state.forms.emit({ kind: "form.submitted", data: {} });
    await api.webhooks.runDue();
    for (let hour = 0; hour < 5 * 24; hour++) {
      advance(60 * 60 * 1000);
      await api.webhooks.runDue();
      if (hour % 12 === 0) api.state.forms.emit({ kind: "form.submitted", data: {} });
    }
    const after = api.state.webhookSubscriptions.get(sub.id)!;
    expect(after.active).toBe(false);
    expect(after.updatedAt).not.toBe(sub.updatedAt);
  });
});

describe("webhooks.onEvent: told of each event as it is emitted", () => {
  it("once per event, with the event as its body carries it, its deliveries already queued and due", () => {
    const heard: { type: string; due: number }[] = [];
    const api = createMockApi({
      apiKeys: ["k"],
      webhooks: { onEvent: (event) => heard.push({ type: event.type, due: api.webhooks.list().filter((d) => d.eventId === event.id).length }) },
    });
    api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/all" });
    const page = api.state.pages.create();
    api.state.pageVersions.create({ pageId: page.id });
    api.state.forms.emit({ kind: "form.submitted", data: {} });
    expect(heard).toEqual([
      { type: "page.version.created", due: 1 },
      { type: "form.submitted", due: 1 },
    ]);
  });

  it("a listener that throws changes nothing: the write and its event stand", () => {
    const api = createMockApi({
      apiKeys: ["k"],
      webhooks: {
        onEvent: () => {
          throw new Error("listener bug");
        },
      },
    });
    const event = api.state.forms.emit({ kind: "form.submitted", data: { n: 1 } });
    expect(api.webhooks.events().map((known) => known.event.id)).toEqual([event.id]);
  });
});
