/**
 * Issue 26.6: under an event that went to no subscription, the console says why, per
 * subscription, from what it can see: the subscriptions as they are now, with `createdAt` and
 * `updatedAt` (any change, a deactivation included). The demo's start-up events are the case that
 * read "No subscription wanted this event": created in the same millisecond as the subscription.
 */
import { describe, expect, it } from "vitest";
import { notDeliveredSentence, type SubscriptionAsListed, whyNotDelivered } from "../../mock/console/ui/not-delivered.js";

const T = (ms: number) => new Date(Date.UTC(2024, 1, 29, 12, 0, 0, ms)).toISOString();
const event = { type: "page.version.published", createdAt: T(500) };
const subscription = (fields: Partial<SubscriptionAsListed> & { created: number; changed?: number }): SubscriptionAsListed => ({
  id: "sub_1",
  active: true,
  events: ["page.version.published"],
  createdAt: T(fields.created),
  updatedAt: T(fields.changed ?? fields.created),
  ...fields,
});

describe("why an event reached no subscription", () => {
  it.each([
    ["created after the event", subscription({ created: 600 }), "did not exist yet"],
    [
      "created in the event's millisecond, never changed, taking the kind (the demo's publication)",
      subscription({ created: 500 }),
      "did not exist yet",
    ],
    [
      "created after the event, not selecting the kind: its settings explain it either way",
      subscription({ created: 600, events: ["form.submitted"] }),
      "does not select page.version.published",
    ],
    ["unchanged since before the event, inactive", subscription({ created: 100, changed: 200, active: false }), "is inactive"],
    [
      "unchanged since before the event, not selecting the kind",
      subscription({ created: 100, events: ["form.submitted"] }),
      "does not select page.version.published",
    ],
    [
      "unchanged since before the event, inactive and not selecting: inactive first, as the dispatcher checks",
      subscription({ created: 100, active: false, events: [] }),
      "is inactive",
    ],
    ["every kind (events null) counts as selecting", subscription({ created: 600, events: null }), "did not exist yet"],
    [
      "changed since the event: its settings then are unknown",
      subscription({ created: 100, changed: 900 }),
      "was inactive or did not select it then (it has changed since)",
    ],
    [
      "created in the event's millisecond and changed since",
      subscription({ created: 500, changed: 900 }),
      "did not exist yet, was inactive or did not select it (it has changed since)",
    ],
    ["created after the event and changed since", subscription({ created: 600, changed: 900, active: false }), "did not exist yet"],
    [
      "taking it, unchanged since before: the delivery record was dropped",
      subscription({ created: 100 }),
      "received it (its delivery is no longer kept)",
    ],
  ])("%s", (_, listed, reason) => {
    expect(whyNotDelivered(event, listed)).toBe(reason);
  });

  it("one sentence for every subscription of the tenant, or none at all", () => {
    expect(notDeliveredSentence(event, [])).toBe("Not delivered: no webhook subscription exists.");
    expect(notDeliveredSentence(event, [subscription({ created: 600 }), { ...subscription({ created: 100, active: false }), id: "sub_2" }])).toBe(
      "Not delivered: sub_1 did not exist yet; sub_2 is inactive.",
    );
  });
});
