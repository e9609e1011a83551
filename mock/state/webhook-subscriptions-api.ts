/**
 * `state.webhookSubscriptions` and `state.forms`: seed subscriptions (with `events` null or a
 * list, active or not) and emit the form events no API operation causes.
 * @module
 */

import type { WebhookEvent } from "../../src/schemas/index.js";
import { type WebhookSubscriptionUpdate as Update, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import { formatTimestamp } from "../lib/clock.js";
import { type FORM_EVENT_KINDS, FormEventInput, SubscriptionInput, type TenantOption } from "./inputs.js";
import type { WebhookSubscriptionRecord } from "./records.js";
import { readers, type Store, tenantFor, timestamp } from "./store.js";
import { existing, parseNew, parseOrThrow } from "./validate.js";
import { applySubscriptionUpdate, dedupeEvents } from "./webhook-subscriptions.js";

/** Webhook subscriptions of a tenant. */
export interface WebhookSubscriptionsApi {
  /**
   * Creates a subscription (`id` default `webhooksubscription_` + ULID, `events` default null =
   * every kind, `active` default true) with a seeded `whsec_` secret.
   * @throws {MockStateError} for an invalid URL or event list, or a taken ID
   */
  create(input: SubscriptionInput): WebhookSubscriptionRecord;
  /**
   * Applies an update exactly as `PATCH /v0/webhook_subscriptions/{id}` does.
   * @throws {MockStateError} for an invalid update or an unknown subscription
   */
  update(id: string, update: Update, options?: TenantOption): WebhookSubscriptionRecord;
  /** The subscription with this ID (with its secret), or undefined. */
  get(id: string, options?: TenantOption): WebhookSubscriptionRecord | undefined;
  /** Every subscription of the tenant, oldest first. */
  list(options?: TenantOption): WebhookSubscriptionRecord[];
  /**
   * Gives the subscription a new seeded secret. The old one keeps signing beside it (two `v1,`
   * signatures, as Standard Webhooks allows) for `SECRET_ROTATION_OVERLAP_MS`, so receivers
   * can switch without losing a delivery.
   * @throws {MockStateError} for an unknown subscription
   */
  rotateSecret(id: string, options?: TenantOption): WebhookSubscriptionRecord;
  /** The secrets that sign the subscription's deliveries now: the current one, then the previous one while it lasts. */
  signingSecrets(id: string, options?: TenantOption): string[] | undefined;
}

/** How long a rotated-out secret keeps signing beside the new one (24 hours, as Svix does). */
export const SECRET_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The form event kinds a test can emit. */
export type FormEventKind = (typeof FORM_EVENT_KINDS)[number];

/** Form events: emitted by a test, delivered like every other event. */
export interface FormsApi {
  /**
   * Emits `form.submitted`, `form.enriched` or `form.enrichment_failed` with `data` to the
   * tenant's subscriptions that want it.
   * @throws {MockStateError} for another kind or data that is not a JSON object
   */
  emit(input: FormEventInput): WebhookEvent;
}

const copy = (record: WebhookSubscriptionRecord): WebhookSubscriptionRecord => ({
  ...record,
  events: record.events && [...record.events],
});

function createSubscription(store: Store, input: unknown): WebhookSubscriptionRecord {
  const { parsed, tenant } = parseNew(store, SubscriptionInput, input, "a webhook subscription", (t) => t.webhookSubscriptions);
  const createdAt = timestamp(store);
  const record: WebhookSubscriptionRecord = {
    id: parsed.id ?? store.newId("webhooksubscription"),
    tenantId: tenant.record.id,
    url: parsed.url,
    events: parsed.events == null ? null : dedupeEvents(parsed.events),
    active: parsed.active ?? true,
    secret: store.newSecret(),
    createdAt,
    updatedAt: createdAt,
  };
  tenant.webhookSubscriptions.set(record.id, record);
  return copy(record);
}

/** Builds `state.webhookSubscriptions` over the current store. */
export function webhookSubscriptionsApi(current: () => Store): WebhookSubscriptionsApi {
  const subscription = (id: string, options: TenantOption) =>
    existing(tenantFor(current(), options.tenantId).webhookSubscriptions, id, "webhook subscription");
  return {
    create: (input) => createSubscription(current(), input),
    update(id, update, options = {}) {
      const parsed = parseOrThrow(WebhookSubscriptionUpdate, update, "a webhook subscription update");
      const record = subscription(id, options);
      applySubscriptionUpdate(tenantFor(current(), options.tenantId), record, parsed, timestamp(current()));
      return copy(record);
    },
    rotateSecret(id, options = {}) {
      const store = current();
      const record = subscription(id, options);
      record.previousSecret = { secret: record.secret, expiresAt: formatTimestamp(store.nowMs() + SECRET_ROTATION_OVERLAP_MS) };
      record.secret = store.newSecret();
      tenantFor(store, options.tenantId).webhookSubscriptions.set(record.id, record); // stored again: the journal hears of the change
      return copy(record);
    },
    signingSecrets(id, options = {}) {
      const store = current();
      const record = tenantFor(store, options.tenantId).webhookSubscriptions.get(id);
      if (record === undefined) return undefined;
      const previous = record.previousSecret;
      return previous !== undefined && Date.parse(previous.expiresAt) > store.nowMs() ? [record.secret, previous.secret] : [record.secret];
    },
    ...readers(current, (tenant) => tenant.webhookSubscriptions, copy),
  };
}

/** Builds `state.forms` over the current store. */
export function formsApi(current: () => Store): FormsApi {
  return {
    emit(input) {
      const store = current();
      const { tenantId, kind, data } = parseOrThrow(FormEventInput, input, "a form event");
      return store.emit(tenantFor(store, tenantId), kind, data);
    },
  };
}
