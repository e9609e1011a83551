import * as z from "zod/mini";
import { WebhookEventKindInResponse } from "./events.js";
import { DateTime, type JsonObject, JsonObjectSchema, OpaqueId } from "./primitives.js";

/**
 * The body of a delivered webhook event (Standard Webhooks envelope, see docs/webhooks.md):
 * `{ id, type, createdAt, data }`. Forward-compatible: an unknown event kind or an extra field
 * is accepted, so an event kind the API adds later never breaks a receiver.
 */
export const WebhookEvent = /* @__PURE__ */ z.looseObject({
  id: OpaqueId,
  type: WebhookEventKindInResponse,
  createdAt: DateTime,
  data: JsonObjectSchema,
});

/**
 * A webhook event as delivered: its `id` (equal to the `webhook-id` header, stable across
 * retries, so a receiver can de-duplicate), its kind, its creation time and its data.
 */
export interface WebhookEvent {
  /** The event's ID, equal to the `webhook-id` header and the same on every retry. */
  id: string;
  /** The event kind. */
  type: WebhookEventKindInResponse;
  /** When the event happened (ISO 8601, UTC). */
  createdAt: string;
  /** The event's data. */
  data: JsonObject;
}
