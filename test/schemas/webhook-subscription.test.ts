import { describe, expect, expectTypeOf, it } from "vitest";
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind, WebhookSubscription, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import { fieldErrors } from "./support/field-errors.js";

const subscription = {
  id: "webhooksubscription_01",
  url: "https://hooks.example.com/in",
  events: ["form.submitted"],
  active: true,
  createdAt: "2024-02-29T12:00:00.000Z",
  updatedAt: "2024-02-29T12:00:00.000Z",
};

describe("spec 6: the closed list of event kinds", () => {
  it("has exactly the six kinds of the spec", () => {
    expect(WEBHOOK_EVENT_KINDS).toEqual([
      "page.version.created",
      "page.version.processed",
      "page.version.published",
      "form.submitted",
      "form.enriched",
      "form.enrichment_failed",
    ]);
  });

  it.each(WEBHOOK_EVENT_KINDS.map((kind) => [kind]))("a request may subscribe to %s", (kind) => {
    expect(fieldErrors(WebhookSubscriptionUpdate, { events: [kind] })).toEqual([]);
  });

  it.each(WEBHOOK_EVENT_KINDS.map((kind) => [kind]))("a response may carry %s", (kind) => {
    expect(fieldErrors(WebhookSubscription, { ...subscription, events: [kind] })).toEqual([]);
  });

  it("an unknown kind is rejected in a request", () => {
    expect(fieldErrors(WebhookSubscriptionUpdate, { events: ["form.submitted", "page.deleted"] })).toEqual([
      expect.objectContaining({ pointer: "/events/1", code: "invalid_value" }),
    ]);
  });

  it("an unknown kind is accepted in a response (forward compatibility)", () => {
    expect(WebhookSubscription.parse({ ...subscription, events: ["page.deleted"] }).events).toEqual(["page.deleted"]);
  });

  it("types: a response kind is WebhookEventKind | (string & {})", () => {
    expectTypeOf<NonNullable<WebhookSubscription["events"]>[number]>().toEqualTypeOf<WebhookEventKind | (string & {})>();
    expectTypeOf<NonNullable<WebhookSubscriptionUpdate["events"]>[number]>().toEqualTypeOf<WebhookEventKind>();
  });
});

describe("spec 4.3: the update request", () => {
  it.each([
    ["{} (a no-op)", {}],
    ["only url", { url: "https://example.com/h" }],
    ["only events", { events: ["form.enriched"] }],
    ["only active", { active: false }],
    ["every field", { url: "http://localhost:3000/h", events: [...WEBHOOK_EVENT_KINDS], active: true }],
    ["duplicate kinds (de-duplicated by the server)", { events: ["form.enriched", "form.enriched"] }],
  ])("every field is optional: accepts %s", (_rule, body) => {
    expect(fieldErrors(WebhookSubscriptionUpdate, body)).toEqual([]);
  });

  it.each([
    ["url", "javascript:alert(1)", "invalid_format"],
    ["url", "ftp://example.com/h", "invalid_format"],
    ["url", "/relative", "invalid_format"],
    ["url", 42, "invalid_type"],
    ["events", [], "events_empty"],
    ["events", null, "invalid_type"],
    ["events", "form.enriched", "invalid_type"],
    ["active", "false", "invalid_type"],
    ["active", null, "invalid_type"],
  ])("rejects %s = %j with code %s", (field, value, code) => {
    expect(fieldErrors(WebhookSubscriptionUpdate, { [field]: value })).toEqual([expect.objectContaining({ pointer: `/${field}`, code })]);
  });

  it("BEHAVIOUR: unknown fields are rejected", () => {
    expect(fieldErrors(WebhookSubscriptionUpdate, { enabled: true })).toEqual([
      expect.objectContaining({ pointer: "/enabled", code: "unknown_field" }),
    ]);
  });
});

describe("spec 2.4: the subscription in a response", () => {
  it("accepts events: null (all event kinds)", () => {
    expect(fieldErrors(WebhookSubscription, { ...subscription, events: null })).toEqual([]);
  });

  it.each([
    ["id", undefined],
    ["url", "not a url"],
    ["events", undefined],
    ["active", "yes"],
    ["createdAt", "2023-02-29T00:00:00Z"],
    ["updatedAt", "2024-01-01T00:00:00+02:00"],
  ])("rejects %s = %j", (field, value) => {
    expect(fieldErrors(WebhookSubscription, { ...subscription, [field]: value })).toEqual([expect.objectContaining({ pointer: `/${field}` })]);
  });

  it("is forward-compatible: an unknown field is kept", () => {
    expect(WebhookSubscription.parse({ ...subscription, secretHint: "whsec_…" })).toMatchObject({ secretHint: "whsec_…" });
  });
});
