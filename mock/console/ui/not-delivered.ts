/**
 * Why an event went to none of the tenant's subscriptions, said per subscription. The console
 * sees the subscriptions as they are now, with `createdAt` and `updatedAt` (the last change of any
 * kind, a deactivation included), so it reasons from those: one that has not changed since the
 * event had its present settings then, if it existed; one that takes the event with those settings
 * can only have been created after it (else it would have been delivered), unless the dispatcher,
 * which keeps a bounded number of delivery records, has forgotten the delivery.
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

/**
 * Why one subscription did not get an event, as a phrase that follows its ID. Settings that
 * explain it on their own come first (they held whether or not it existed yet).
 * @param event - the event's kind and time
 * @param subscription - the subscription as it is now
 * @returns e.g. "did not exist yet", "is inactive", "does not select page.version.created"
 */
export function whyNotDelivered(event: { readonly type: string; readonly createdAt: string }, subscription: SubscriptionAsListed): string {
  const at = Date.parse(event.createdAt);
  const created = Date.parse(subscription.createdAt);
  const changed = Date.parse(subscription.updatedAt);
  const selects = subscription.events === null || subscription.events.includes(event.type);
  if (changed < at || changed === created) {
    // Unchanged since the event (or since it was created): if it existed then, it had today's settings.
    if (!subscription.active) return "is inactive";
    if (!selects) return `does not select ${event.type}`;
    // It takes the event with those settings, so it would have had it had it existed: created after it.
    return created >= at ? "did not exist yet" : "received it (its delivery is no longer kept)";
  }
  if (created > at) return "did not exist yet";
  // Changed since the event: its settings then are not known any more.
  return created === at
    ? "did not exist yet, was inactive or did not select it (it has changed since)"
    : "was inactive or did not select it then (it has changed since)";
}

/**
 * The sentence the console shows under an event no subscription received.
 * @param event - the event's kind and time
 * @param subscriptions - the tenant's subscriptions now
 */
export function notDeliveredSentence(
  event: { readonly type: string; readonly createdAt: string },
  subscriptions: readonly SubscriptionAsListed[],
): string {
  if (subscriptions.length === 0) return "Not delivered: no webhook subscription exists.";
  return `Not delivered: ${subscriptions.map((subscription) => `${subscription.id} ${whyNotDelivered(event, subscription)}`).join("; ")}.`;
}
