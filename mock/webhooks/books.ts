/**
 * A tenant's books in the delivery engine: its events, its deliveries past and pending, each
 * subscription's run of failures and what stops its attempts. A subscription ID is unique within
 * its tenant only, so everything keyed by subscription lives in its tenant's books: one tenant's
 * failures, deactivations, trims and resets never touch another's.
 * @module
 */
import type { WebhookEvent } from "../../src/schemas/index.js";
import type { Delivery, DeliveryAttempt, DeliveryStatus, SavedDelivery, SavedWebhooks } from "./types.js";

/** A delivery as the dispatcher keeps it: the public fields plus the secret and scheduling state. */
export interface DeliveryRecord extends Omit<Delivery, "status" | "attempts" | "nextAttemptAt"> {
  readonly sequence: number;
  readonly secret: string;
  status: DeliveryStatus;
  readonly attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  /** A scheduled attempt of it is waiting for a slot or in flight: no other run takes it. */
  claimed: boolean;
}

/** An event as kept: its tenant, and its place in the order of every tenant's events. */
export interface EventEntry {
  readonly tenantId: string | null;
  readonly event: WebhookEvent;
  readonly order: number;
}

/** One tenant's books (`tenantId` null: events of no tenant). */
export interface Books {
  readonly tenantId: string | null;
  /** Its deliveries, in the order they were made. */
  records: DeliveryRecord[];
  /** Its events, oldest first. */
  events: EventEntry[];
  /** Deliveries with an attempt still to make, by subscription: what `runDue` looks at and deactivation cancels. */
  readonly pending: Map<string, Set<DeliveryRecord>>;
  /** When each subscription's current run of failures began (absent: its last attempt succeeded). */
  readonly failingSince: Map<string, number>;
  /** Aborts this tenant's attempts in flight (its reset or deletion). */
  readonly stop: AbortController;
}

/** Empty books for a tenant. */
export function openBooks(tenantId: string | null): Books {
  return { tenantId, records: [], events: [], pending: new Map(), failingSince: new Map(), stop: new AbortController() };
}

/** A delivery as `list()` shows it. */
export function snapshot({ sequence, secret, claimed, attempts, nextAttemptAt, ...delivery }: DeliveryRecord): Delivery {
  return { ...delivery, attempts: [...attempts], nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
}

/** A delivery as a state file keeps it. */
export function saved(record: DeliveryRecord): SavedDelivery {
  return { ...snapshot(record), sequence: record.sequence, secret: record.secret };
}

/** Adds a delivery to its subscription's pending ones. */
export function addPending(books: Books, record: DeliveryRecord): void {
  const queue = books.pending.get(record.subscriptionId);
  if (queue === undefined) books.pending.set(record.subscriptionId, new Set([record]));
  else queue.add(record);
}

/** Takes a delivery out of its subscription's pending ones. */
export function removePending(books: Books, record: DeliveryRecord): void {
  const queue = books.pending.get(record.subscriptionId);
  queue?.delete(record);
  if (queue?.size === 0) books.pending.delete(record.subscriptionId);
}

/** Every tenant's books as a state file keeps them: events in the order they were made, deliveries by sequence, runs of failures by tenant. */
export function saveLedger(ledger: Iterable<Books>): SavedWebhooks {
  const books = [...ledger];
  return {
    events: books
      .flatMap((b) => b.events)
      .sort((a, b) => a.order - b.order)
      .map(({ tenantId, event }) => ({ tenantId, event })),
    deliveries: books
      .flatMap((b) => b.records)
      .sort((a, b) => a.sequence - b.sequence)
      .map(saved),
    failingSince: books.flatMap((b) => [...b.failingSince].map(([subscriptionId, since]) => [b.tenantId, subscriptionId, since] as const)),
  };
}

/**
 * Puts a saved state into empty books (pending deliveries due at their saved time).
 * @param booksOf - the books of a tenant, opened on first use
 * @param nextOrder - the place of the next event in the order of every tenant's events
 * @returns the sequence the next delivery takes, or undefined when none was saved
 */
export function restoreLedger(state: SavedWebhooks, booksOf: (tenantId: string | null) => Books, nextOrder: () => number): number | undefined {
  for (const { tenantId, event } of state.events) booksOf(tenantId).events.push({ tenantId, event, order: nextOrder() });
  let next: number | undefined;
  for (const delivery of [...state.deliveries].sort((a, b) => a.sequence - b.sequence)) {
    const books = booksOf(delivery.tenantId);
    const record: DeliveryRecord = {
      ...delivery,
      attempts: [...delivery.attempts],
      nextAttemptAt: delivery.nextAttemptAt === null ? null : new Date(delivery.nextAttemptAt),
      claimed: false,
    };
    books.records.push(record);
    if (record.status === "pending") addPending(books, record);
    next = record.sequence + 1;
  }
  for (const [tenantId, subscriptionId, since] of state.failingSince) booksOf(tenantId).failingSince.set(subscriptionId, since);
  return next;
}
