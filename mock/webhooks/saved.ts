/**
 * The webhook deliveries as a state file keeps them (`--state`): every event and delivery the
 * dispatcher holds, with its attempts and schedule, and the changes that keep a saved copy up to
 * date one delivery at a time. Attempts in flight are not saved: after a restart the delivery is
 * due again and is attempted anew (at least once, as Standard Webhooks asks receivers to expect).
 * @module
 */
import * as z from "zod/mini";
import { HttpUrl, OpaqueId, WebhookEvent } from "../../src/schemas/index.js";
import { DeliverySchema } from "./schemas.js";
import { WebhookSecretSchema } from "./secret.js";
import type { FailingSince, SavedWebhooks, WebhookChange } from "./types.js";

/** A saved delivery: the public fields, the order it was made in and the secret it was emitted with. */
export const SavedDeliverySchema = z.extend(DeliverySchema, {
  sequence: z.int().check(z.gte(0)),
  url: HttpUrl,
  secret: WebhookSecretSchema,
});

/** A saved event and its tenant. */
export const SavedEventSchema = z.object({ tenantId: z.nullable(OpaqueId), event: WebhookEvent });

/** A run of failures: `[tenantId, subscriptionId, since]`. */
const FailingSinceSchema = z.tuple([z.nullable(OpaqueId), OpaqueId, z.number()]);

/** What a {@link SavedWebhooks} must be: events, deliveries in the order they were made, and each failing subscription's first failure, by tenant. */
export const SavedWebhooksSchema = z.object({
  events: z.array(SavedEventSchema),
  deliveries: z.array(SavedDeliverySchema),
  failingSince: z.array(FailingSinceSchema),
});

/** The saved webhooks being replayed: deliveries by sequence, failing subscriptions by tenant and ID. */
export interface WebhookReplay {
  readonly events: SavedWebhooks["events"][number][];
  readonly deliveries: Map<number, unknown>;
  readonly failingSince: Map<string, FailingSince>;
}

/** The key of a subscription in a replay's failing runs: a subscription ID is unique within its tenant only. */
const failingKey = (tenantId: string | null, subscriptionId: string) => JSON.stringify([tenantId, subscriptionId]);

/** Starts replaying a saved state's webhooks from nothing. */
export function startWebhookReplay(): WebhookReplay {
  return { events: [], deliveries: new Map(), failingSince: new Map() };
}

/** The saved webhooks a replay ends with (deliveries in the order they were made). */
export function endWebhookReplay(replay: WebhookReplay): SavedWebhooks {
  return {
    events: replay.events,
    deliveries: ([...replay.deliveries.values()] as SavedWebhooks["deliveries"][number][]).sort((a, b) => a.sequence - b.sequence),
    failingSince: [...replay.failingSince.values()],
  };
}

/** Forgets everything a replay holds (a reset). */
export function clearWebhookReplay(replay: WebhookReplay): void {
  replay.events.length = 0;
  replay.deliveries.clear();
  replay.failingSince.clear();
}

/** Drops, in place, the events `drop` picks (a spread of every event as arguments would overflow the stack for a large record). */
function dropEvents(events: SavedWebhooks["events"][number][], drop: (entry: SavedWebhooks["events"][number]) => boolean): void {
  let kept = 0;
  for (const entry of events) if (!drop(entry)) events[kept++] = entry;
  events.length = kept;
}

/**
 * Applies a change to a saved state (the deliveries by sequence): how a journal is replayed.
 * @param saved - events, deliveries by sequence, failing subscriptions; changed in place
 */
export function applyWebhookChange(saved: WebhookReplay, change: WebhookChange): void {
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
    case "forget-events": {
      let left = change.count;
      dropEvents(saved.events, (entry) => entry.tenantId === change.tenantId && left-- > 0);
      break;
    }
    case "failing":
      if (change.since === null) saved.failingSince.delete(failingKey(change.tenantId, change.subscriptionId));
      else saved.failingSince.set(failingKey(change.tenantId, change.subscriptionId), [change.tenantId, change.subscriptionId, change.since]);
      break;
    case "forget-tenant":
      dropEvents(saved.events, (entry) => entry.tenantId === change.tenantId);
      for (const [sequence, delivery] of saved.deliveries) {
        if ((delivery as { tenantId?: unknown }).tenantId === change.tenantId) saved.deliveries.delete(sequence);
      }
      for (const [key, entry] of saved.failingSince) if (entry[0] === change.tenantId) saved.failingSince.delete(key);
      break;
  }
}
