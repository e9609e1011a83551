/**
 * Rules of `PATCH /v0/webhook_subscriptions/{subscription_id}` (spec 2.4, 4.3, BEHAVIOUR "Update
 * webhook subscription"): partial update, `{}` no-op, `updatedAt` only on a real change, events
 * de-duplicated and never empty, URL rules, 404s.
 */
import { describe, expect, it } from "vitest";
import { MAX_URL_LENGTH, WEBHOOK_EVENT_KINDS, WebhookSubscription } from "../../../src/schemas/index.js";
import { SUBSCRIPTIONS, T0_ISO } from "../fixtures.js";
import { expectFieldErrors, expectProblem, type Harness } from "../harness.js";

const LATER = "2024-02-29T12:00:05.000Z";
const ALL = {
  id: SUBSCRIPTIONS.all,
  url: "https://hooks.example.com/all",
  events: null,
  active: true,
  createdAt: T0_ISO,
  updatedAt: T0_ISO,
};
const LIST = { ...ALL, id: SUBSCRIPTIONS.list, url: "https://hooks.example.com/list", events: ["form.submitted", "page.version.published"] };

const urlOf = (length: number) => {
  const prefix = "https://hooks.example.com/";
  return prefix + "p".repeat(length - prefix.length);
};

/** Registers the rules. */
export function updateSubscriptionRules(h: Harness): void {
  const patch = async (id: string, body: unknown) => {
    h.advance(5000);
    return h.patchSubscription(id, body);
  };

  describe("update subscription: partial updates; updatedAt moves only on a real change", () => {
    it("200 with exactly the spec's six fields (never the secret), valid by the shared schema", async () => {
      const answer = await patch(SUBSCRIPTIONS.all, {});
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(ALL);
      expect(WebhookSubscription.safeParse(answer.body).success).toBe(true);
    });

    it.each([
      ["{} is a no-op", SUBSCRIPTIONS.all, {}, ALL],
      ["the same url", SUBSCRIPTIONS.all, { url: ALL.url }, ALL],
      ["the same active flag", SUBSCRIPTIONS.all, { active: true }, ALL],
      ["the same events", SUBSCRIPTIONS.list, { events: LIST.events }, LIST],
      ["the same events with duplicates", SUBSCRIPTIONS.list, { events: [...LIST.events, ...LIST.events] }, LIST],
      ["all unchanged values at once", SUBSCRIPTIONS.list, { url: LIST.url, events: LIST.events, active: true }, LIST],
    ])("%s leaves updatedAt unchanged", async (_, id, body, expected) => {
      expect((await patch(id, body)).body).toEqual(expected);
    });

    it.each([
      ["url only", SUBSCRIPTIONS.all, { url: "http://new.example.com/h" }, { ...ALL, url: "http://new.example.com/h", updatedAt: LATER }],
      ["active only", SUBSCRIPTIONS.all, { active: false }, { ...ALL, active: false, updatedAt: LATER }],
      [
        "events only (from null, all kinds, to a list)",
        SUBSCRIPTIONS.all,
        { events: ["form.enriched"] },
        { ...ALL, events: ["form.enriched"], updatedAt: LATER },
      ],
      [
        "events in another order (order is part of the list)",
        SUBSCRIPTIONS.list,
        { events: [...LIST.events].reverse() },
        { ...LIST, events: [...LIST.events].reverse(), updatedAt: LATER },
      ],
      [
        "all three",
        SUBSCRIPTIONS.list,
        { url: "https://x.example/y", events: ["form.enriched"], active: false },
        { ...LIST, url: "https://x.example/y", events: ["form.enriched"], active: false, updatedAt: LATER },
      ],
    ])("changing %s changes only that and moves updatedAt", async (_, id, body, expected) => {
      expect((await patch(id, body)).body).toEqual(expected);
    });

    it("the change is stored: the next update starts from it", async () => {
      await patch(SUBSCRIPTIONS.all, { active: false });
      expect((await patch(SUBSCRIPTIONS.all, {})).body).toMatchObject({ active: false, updatedAt: LATER });
      expect(h.api.state.webhookSubscriptions.get(SUBSCRIPTIONS.all)).toMatchObject({ active: false, updatedAt: LATER });
    });

    it("an inactive subscription can be activated again", async () => {
      expect((await patch(SUBSCRIPTIONS.inactive, { active: true })).body).toMatchObject({ active: true, events: ["form.enriched"] });
    });

    it.each([
      [
        ["form.submitted", "form.enriched", "form.submitted"],
        ["form.submitted", "form.enriched"],
      ],
      [["form.enriched", "form.enriched", "form.enriched"], ["form.enriched"]],
      [[...WEBHOOK_EVENT_KINDS, ...WEBHOOK_EVENT_KINDS].reverse(), [...WEBHOOK_EVENT_KINDS].reverse()],
    ])("events %j are stored de-duplicated in first-seen order: %j", async (events, stored) => {
      expect((await patch(SUBSCRIPTIONS.all, { events })).body.events).toEqual(stored);
    });
  });

  describe("update subscription: validation", () => {
    it.each([
      ["events: null (not accepted in a request)", { events: null }, [["/events", "invalid_type"]]],
      ["an unknown event kind", { events: ["form.submitted", "page.deleted"] }, [["/events/1", "invalid_value"]]],
      ["events as a string", { events: "form.submitted" }, [["/events", "invalid_type"]]],
      ["active as a string", { active: "true" }, [["/active", "invalid_type"]]],
      ["active as a number", { active: 1 }, [["/active", "invalid_type"]]],
      ["active null", { active: null }, [["/active", "invalid_type"]]],
      ["an unknown field", { secret: "whsec_x" }, [["/secret", "unknown_field"]]],
      ["url with javascript:", { url: "javascript:alert(1)" }, [["/url", "invalid_format"]]],
      ["url with data:", { url: "data:text/plain,hi" }, [["/url", "invalid_format"]]],
      ["a relative url", { url: "/hooks" }, [["/url", "invalid_format"]]],
      ["url not a string", { url: 42 }, [["/url", "invalid_type"]]],
      [`url of ${MAX_URL_LENGTH + 1} characters`, { url: urlOf(MAX_URL_LENGTH + 1) }, [["/url", "too_long"]]],
    ] as const)("%s answers 400", async (_, body, errors) => {
      const before = h.api.state.snapshot();
      expectFieldErrors(await patch(SUBSCRIPTIONS.list, body), errors);
      expect(h.api.state.snapshot()).toBe(before);
    });

    it.each([
      ["http", "http://hooks.example.com/h"],
      ["https with a port, path and query", "https://hooks.example.com:8443/h?x=1"],
      [`${MAX_URL_LENGTH} characters`, urlOf(MAX_URL_LENGTH)],
    ])("url with %s is accepted", async (_, url) => {
      expect((await patch(SUBSCRIPTIONS.all, { url })).body.url).toBe(url);
    });
  });

  describe("update subscription: 404 not_found", () => {
    it.each([
      ["an unknown ID", "whsub_missing"],
      ["an ID differing in case", SUBSCRIPTIONS.all.toUpperCase()],
    ])("%s answers 404", async (_, id) => {
      expectProblem(await patch(id, { active: false }), 404, "not_found");
    });
  });
}
