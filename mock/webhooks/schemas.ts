/**
 * The shapes of the webhook engine's records, as Zod schemas: an attempt, where a delivery stands,
 * why an attempt failed. One source: a saved state is checked with them, the control API answers
 * with them, and their types derive from them.
 * @module
 */
import * as z from "zod/mini";
import { DateTime, OpaqueId, WebhookEventKind } from "../../src/schemas/index.js";

/**
 * Why an attempt failed: `status` (a non-2xx answer), `redirect` (3xx, never followed), `timeout`,
 * `refused` (connection refused), `dns` (the host name did not resolve), `tls` (the TLS handshake or
 * certificate failed), `network` (another network error) or `signing` (the secret is malformed).
 */
export const AttemptFailureReasonSchema = z.enum(["status", "redirect", "timeout", "refused", "dns", "tls", "network", "signing"]);

/**
 * Where a delivery stands: `pending` (an attempt is due at `nextAttemptAt`), `succeeded`,
 * `failed` (all 8 attempts failed) or `cancelled` (its subscription was deactivated).
 */
export const DeliveryStatusSchema = z.enum(["pending", "succeeded", "failed", "cancelled"]);

/** One HTTP attempt to deliver an event to a subscription. */
export const DeliveryAttemptSchema = z.object({
  eventId: OpaqueId,
  subscriptionId: OpaqueId,
  /** 1 for the first attempt, up to 8. */
  attempt: z.int().check(z.gte(1)),
  /** When the attempt was made (ISO 8601, from the injected clock). */
  at: DateTime,
  /** True for a 2xx answer. */
  ok: z.boolean(),
  /** The answer's HTTP status, or `null` after a network error or a timeout. */
  status: z.nullable(z.int()),
  /** Why it failed, as a word, or `null` on success. */
  reason: z.nullable(AttemptFailureReasonSchema),
  /** Why it failed (`HTTP 500`, `network error: …`, `timeout after 15000 ms`), or `null` on success. */
  error: z.nullable(z.string()),
  /** The first 1 KiB of the answer's body as text, or `null` when nothing answered. */
  response: z.nullable(z.string()),
  /** How long the attempt took, in milliseconds. */
  durationMs: z.number().check(z.gte(0)),
  /** True for an attempt made by `redeliver` rather than by the schedule. */
  redelivery: z.boolean(),
});

/** One event on its way to one subscription, with every attempt made so far. */
export const DeliverySchema = z.object({
  eventId: OpaqueId,
  type: WebhookEventKind,
  /** The subscription's tenant (`null` when the target named none). */
  tenantId: z.nullable(OpaqueId),
  subscriptionId: OpaqueId,
  url: z.string(),
  /** The exact JSON body every attempt sends. */
  body: z.string(),
  status: DeliveryStatusSchema,
  attempts: z.array(DeliveryAttemptSchema),
  /** When the next attempt is due (ISO 8601), or `null` when none will be made. */
  nextAttemptAt: z.nullable(DateTime),
});
