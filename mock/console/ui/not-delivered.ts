/**
 * Why an event went to none of the tenant's subscriptions, said per subscription. The console sees
 * the subscriptions as they are now, with `createdAt` and `updatedAt` (the last change of any kind,
 * a deactivation included): one unchanged since the event had its present settings then, if it
 * existed; one that takes the event with those settings was created after it (else it would have
 * been delivered), unless the dispatcher, which keeps a bounded number of deliveries, forgot it.
 */

/** The fields of a subscription the reason reads (as `GET /__mock/state` lists it). */
export interface SubscriptionAsListed {
  readonly id: string;
  readonly active: boolean;
  /** The kinds it selects; null: every kind. */
  readonly events: readonly string[] | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The event's kind and time. */
type EventAsListed = { readonly type: string; readonly createdAt: string };

/**
 * Why one subscription did not get an event, as a phrase that follows its ID ("is inactive").
 * Settings that explain it on their own come first: they held whether or not it existed yet.
 */
export function whyNotDelivered(event: EventAsListed, subscription: SubscriptionAsListed): string {
  const at = Date.parse(event.createdAt);
  const created = Date.parse(subscription.createdAt);
  const changed = Date.parse(subscription.updatedAt);
  if (changed < at || changed === created) {
    // Unchanged since the event (or since it was created): if it existed then, it had today's settings.
    if (!subscription.active) return "is inactive";
    if (subscription.events !== null && !subscription.events.includes(event.type)) return `does not select ${event.type}`;
    // It takes the event with those settings, so it would have had it had it existed: created after it.
    return created >= at ? "did not exist yet" : "received it (its delivery is no longer kept)";
  }
  if (created > at) return "did not exist yet";
  // Changed since the event: its settings then are not known any more.
  if (created === at) return "did not exist yet, was inactive or did not select it (it has changed since)";
  return "was inactive or did not select it then (it has changed since)";
}

/** The sentence the console shows under an event no subscription received. */
export function notDeliveredSentence(event: EventAsListed, subscriptions: readonly SubscriptionAsListed[]): string {
  if (subscriptions.length === 0) return "Not delivered: no webhook subscription exists.";
  return `Not delivered: ${subscriptions.map((subscription) => `${subscription.id} ${whyNotDelivered(event, subscription)}`).join("; ")}.`;
}
