/**
 * The webhook deliveries as a state file keeps them (`--state`): every event and delivery the
 * dispatcher holds, with its attempts and schedule, and the changes that keep a saved copy up to
 * date one delivery at a time. Attempts in flight are not saved: after a restart the delivery is
 * due again and is attempted anew (at least once, as Standard Webhooks asks receivers to expect).
 * @module
 */
import * as z from "zod/mini";
import { DateTime, HttpUrl, OpaqueId, WebhookEvent, WebhookEventKind } from "../../src/schemas/index.js";
import { WebhookSecretSchema } from "./secret.js";
import type { SavedWebhooks, WebhookChange } from "./types.js";

const Attempt = z.object({
  eventId: OpaqueId,
  subscriptionId: OpaqueId,
  attempt: z.int().check(z.gte(1)),
  at: DateTime,
  ok: z.boolean(),
  status: z.nullable(z.int()),
  reason: z.nullable(z.enum(["status", "redirect", "timeout", "refused", "dns", "tls", "network", "signing"])),
  error: z.nullable(z.string()),
  response: z.nullable(z.string()),
  durationMs: z.number(),
  redelivery: z.boolean(),
});

/** A saved delivery: the public fields, the order it was made in and the secret it was emitted with. */
export const SavedDeliverySchema = z.object({
  sequence: z.int().check(z.gte(0)),
  eventId: OpaqueId,
  tenantId: z.nullable(OpaqueId),
  type: WebhookEventKind,
  subscriptionId: OpaqueId,
  url: HttpUrl,
  secret: WebhookSecretSchema,
  body: z.string(),
  status: z.enum(["pending", "succeeded", "failed", "cancelled"]),
  attempts: z.array(Attempt),
  nextAttemptAt: z.nullable(DateTime),
});

/** A saved event and its tenant. */
export const SavedEventSchema = z.object({ tenantId: z.nullable(OpaqueId), event: WebhookEvent });

/** What a {@link SavedWebhooks} must be: events, deliveries in the order they were made, and each failing subscription's first failure. */
export const SavedWebhooksSchema = z.object({
  events: z.array(SavedEventSchema),
  deliveries: z.array(SavedDeliverySchema),
  failingSince: z.array(z.tuple([OpaqueId, z.number()])),
});

/**
 * Applies a change to a saved state (the deliveries by sequence): how a journal is replayed.
 * @param saved - events, deliveries by sequence, failing subscriptions; changed in place
 */
export function applyWebhookChange(
  saved: { events: SavedWebhooks["events"][number][]; deliveries: Map<number, unknown>; failingSince: Map<string, number> },
  change: WebhookChange,
): void {
  switch (change.kind) {
    case "event":
      saved.events.push({ tenantId: change.tenantId, event: change.event });
      break;
    case "delivery":
      saved.deliveries.set(change.delivery.sequence, change.delivery);
      break;
    case "forget-delivery":
      saved.deliveries.delete(change.sequence);
      break;
    case "forget-events":
      saved.events.splice(0, change.count);
      break;
    case "failing":
      if (change.since === null) saved.failingSince.delete(change.subscriptionId);
      else saved.failingSince.set(change.subscriptionId, change.since);
      break;
    case "forget-tenant":
      {
        let kept = 0; // in place: a spread of every event as arguments would overflow the stack for a large record
        for (const entry of saved.events) if (entry.tenantId !== change.tenantId) saved.events[kept++] = entry;
        saved.events.length = kept;
      }
      for (const [sequence, delivery] of saved.deliveries) {
        if ((delivery as { tenantId?: unknown }).tenantId === change.tenantId) saved.deliveries.delete(sequence);
      }
      break;
  }
}
