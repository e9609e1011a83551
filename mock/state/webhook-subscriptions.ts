/**
 * Webhook subscriptions: how an update is applied (partial, `updatedAt` moving only on a real
 * change) and how a subscription is shown. One implementation behind both
 * `PATCH /v0/webhook_subscriptions/{id}` and `state.webhookSubscriptions.update`.
 * @module
 */
import type { WebhookEventKind, WebhookSubscription, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import type { WebhookSubscriptionRecord } from "./records.js";

/** Removes repeated kinds, keeping the first-seen order. */
export function dedupeEvents(events: readonly WebhookEventKind[]): WebhookEventKind[] {
  return [...new Set(events)];
}

function sameEvents(a: readonly string[] | null, b: readonly string[]): boolean {
  return a !== null && a.length === b.length && a.every((kind, i) => kind === b[i]);
}

/**
 * Applies a validated update: omitted fields keep their value; `events` is de-duplicated; the
 * list's order is part of its value. `updatedAt` is set to `now` only when something changed.
 * @returns whether anything changed
 */
export function applySubscriptionUpdate(record: WebhookSubscriptionRecord, update: WebhookSubscriptionUpdate, now: string): boolean {
  let changed = false;
  if (update.url !== undefined && update.url !== record.url) {
    record.url = update.url;
    changed = true;
  }
  if (update.events !== undefined) {
    const events = dedupeEvents(update.events);
    if (!sameEvents(record.events, events)) {
      record.events = events;
      changed = true;
    }
  }
  if (update.active !== undefined && update.active !== record.active) {
    record.active = update.active;
    changed = true;
  }
  if (changed) record.updatedAt = now;
  return changed;
}

/** A subscription as the API returns it: the spec's six fields, never the secret. */
export function subscriptionView(record: WebhookSubscriptionRecord): WebhookSubscription {
  return {
    id: record.id,
    url: record.url,
    events: record.events === null ? null : [...record.events],
    active: record.active,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
