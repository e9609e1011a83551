/**
 * Webhook subscriptions: how an update is applied (partial, `updatedAt` moving only on a real
 * change) and how a subscription is shown. One implementation behind both
 * `PATCH /v0/webhook_subscriptions/{id}` and `state.webhookSubscriptions.update`.
 * @module
 */
import type { WebhookEventKind, WebhookSubscription, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import type { WebhookSubscriptionRecord } from "./records.js";
import type { TenantData } from "./tenant-data.js";

/** Removes repeated kinds, keeping the first-seen order. */
export function dedupeEvents(events: readonly WebhookEventKind[]): WebhookEventKind[] {
  return [...new Set(events)];
}

function sameEvents(a: readonly string[] | null, b: readonly string[] | null): boolean {
  return a === b || (a !== null && b !== null && a.length === b.length && a.every((kind, i) => kind === b[i]));
}

/**
 * Applies a validated update: omitted fields keep their value; `events` is de-duplicated, its
 * order part of its value. `updatedAt` moves to `now` only when a value changed.
 */
export function applySubscriptionUpdate(tenant: TenantData, record: WebhookSubscriptionRecord, update: WebhookSubscriptionUpdate, now: string): void {
  const url = update.url ?? record.url;
  const events = update.events === undefined ? record.events : dedupeEvents(update.events);
  const active = update.active ?? record.active;
  if (url === record.url && sameEvents(record.events, events) && active === record.active) return;
  Object.assign(record, { url, events, active, updatedAt: now });
  tenant.webhookSubscriptions.set(record.id, record); // stored again: the journal hears of the change
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
