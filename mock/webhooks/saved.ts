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
import type { FailingSince, SavedWebhookChange, SavedWebhooks, UntenantedFailingSince } from "./types.js";

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

/** A run of failures: `[tenantId, subscriptionId, since]`. */
const FailingSinceSchema = z.tuple([z.nullable(OpaqueId), OpaqueId, z.number()]);

/** What a {@link SavedWebhooks} must be: events, deliveries in the order they were made, and each failing subscription's first failure, by tenant. */
export const SavedWebhooksSchema = z.object({
  events: z.array(SavedEventSchema),
  deliveries: z.array(SavedDeliverySchema),
  failingSince: z.array(FailingSinceSchema),
});

/**
 * The saved webhooks of a format-1 state line: as {@link SavedWebhooksSchema}, a run of failures
 * also in the form a prospectkit wrote before each tenant kept its own, `[subscriptionId, since]`.
 */
export const SavedWebhooksLineSchema = z.object({
  events: z.array(SavedEventSchema),
  deliveries: z.array(SavedDeliverySchema),
  failingSince: z.array(z.union([FailingSinceSchema, z.tuple([OpaqueId, z.number()])])),
});

/** The saved webhooks of a format-1 state line (what {@link SavedWebhooksLineSchema} accepts). */
export type SavedWebhooksLine = Omit<SavedWebhooks, "failingSince"> & {
  readonly failingSince: readonly (FailingSince | UntenantedFailingSince)[];
};

/** The saved webhooks being replayed: deliveries by sequence, failing subscriptions by tenant and ID. */
export interface WebhookReplay {
  readonly events: SavedWebhooks["events"][number][];
  readonly deliveries: Map<number, unknown>;
  readonly failingSince: Map<string, FailingSince>;
  /** Runs of failures saved without their tenant (a file of a prospectkit before tenants kept their own), by subscription ID: given a tenant when the replay ends. */
  readonly untenanted: Map<string, number>;
}

/** The key of a subscription in a replay's failing runs: a subscription ID is unique within its tenant only. */
const failingKey = (tenantId: string | null, subscriptionId: string) => JSON.stringify([tenantId, subscriptionId]);

/** Starts replaying a saved state's webhooks (the records are shared, not copied), or nothing's. */
export function startWebhookReplay(saved: SavedWebhooksLine = { events: [], deliveries: [], failingSince: [] }): WebhookReplay {
  const replay: WebhookReplay = {
    events: [...saved.events],
    deliveries: new Map(saved.deliveries.map((delivery) => [delivery.sequence, delivery])),
    failingSince: new Map(),
    untenanted: new Map(),
  };
  for (const entry of saved.failingSince) {
    if (entry.length === 2) replay.untenanted.set(entry[0], entry[1]);
    else replay.failingSince.set(failingKey(entry[0], entry[1]), entry);
  }
  return replay;
}

/** What a replay's tenants hold, to give a run saved without its tenant to one. */
export interface ReplayedTenants {
  /** Whether the state holds this tenant. */
  has(tenantId: string): boolean;
  /** The tenants holding a subscription with this ID. */
  holding(subscriptionId: string): readonly string[];
}

/**
 * The tenants a run of failures saved without its tenant belongs to: those with a delivery to that
 * subscription ID whose scheduled attempt failed at the very time the run began (the attempt that
 * began it); else the one tenant holding a subscription with that ID; else none (several hold it
 * and no delivery tells: the run is dropped and starts again at that subscription's next failure,
 * so a deactivation comes later, never to a tenant that was not failing).
 */
function ownersOf(replay: WebhookReplay, subscriptionId: string, since: number, tenants: ReplayedTenants): string[] {
  const owners = new Set<string>();
  for (const value of replay.deliveries.values()) {
    const delivery = value as SavedWebhooks["deliveries"][number];
    if (delivery.subscriptionId !== subscriptionId || delivery.tenantId === null || !tenants.has(delivery.tenantId)) continue;
    if (delivery.attempts.some((attempt) => !attempt.ok && !attempt.redelivery && Date.parse(attempt.at) === since)) owners.add(delivery.tenantId);
  }
  if (owners.size > 0) return [...owners];
  const holding = tenants.holding(subscriptionId);
  return holding.length === 1 ? [...holding] : [];
}

/**
 * The saved webhooks a replay ends with (deliveries in the order they were made), each run saved
 * without its tenant given to the tenant it belongs to (see `ownersOf`; a run that tenant
 * already has by its own record stays as it is).
 */
export function endWebhookReplay(replay: WebhookReplay, tenants: ReplayedTenants): SavedWebhooks {
  for (const [subscriptionId, since] of replay.untenanted) {
    for (const tenantId of ownersOf(replay, subscriptionId, since, tenants)) {
      const key = failingKey(tenantId, subscriptionId);
      if (!replay.failingSince.has(key)) replay.failingSince.set(key, [tenantId, subscriptionId, since]);
    }
  }
  replay.untenanted.clear();
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
  replay.untenanted.clear();
}

/** Drops, in place, the events `drop` picks (a spread of every event as arguments would overflow the stack for a large record). */
function dropEvents(events: SavedWebhooks["events"][number][], drop: (entry: SavedWebhooks["events"][number]) => boolean): void {
  let kept = 0;
  for (const entry of events) if (!drop(entry)) events[kept++] = entry;
  events.length = kept;
}

/**
 * Applies a change to a saved state (the deliveries by sequence): how a journal is replayed. A
 * change without its tenant (a journal of a prospectkit before tenants kept their own books) has
 * the meaning it had then: `forget-events` forgets the oldest events of all tenants, and a run of
 * failures is kept by subscription ID alone until the replay ends.
 * @param saved - events, deliveries by sequence, failing subscriptions; changed in place
 */
export function applyWebhookChange(saved: WebhookReplay, change: SavedWebhookChange): void {
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
      if (!("tenantId" in change)) {
        saved.events.splice(0, change.count);
        break;
      }
      let left = change.count;
      dropEvents(saved.events, (entry) => entry.tenantId === change.tenantId && left-- > 0);
      break;
    }
    case "failing":
      if (!("tenantId" in change)) {
        if (change.since === null) saved.untenanted.delete(change.subscriptionId);
        else saved.untenanted.set(change.subscriptionId, change.since);
      } else if (change.since === null) saved.failingSince.delete(failingKey(change.tenantId, change.subscriptionId));
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
