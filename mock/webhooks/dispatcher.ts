import type { JsonObject, WebhookEvent, WebhookEventKind } from "../../src/schemas/index.js";
import { type AttemptOutcome, attemptAll } from "./attempt.js";
import {
  addPending,
  type Books,
  type DeliveryRecord,
  type EventEntry,
  openBooks,
  removePending,
  restoreLedger,
  saved,
  saveLedger,
  snapshot,
} from "./books.js";
import { nextAttemptTime, WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_DEACTIVATE_AFTER_MS } from "./schedule.js";
import { createSlotLine } from "./slots.js";
import type { Delivery, DeliveryAttempt, DeliveryStatus, SavedWebhooks, WebhookDispatcherOptions, WebhookTarget } from "./types.js";

/** How many deliveries and events a dispatcher keeps by default, per tenant. */
const DEFAULT_MAX_WEBHOOK_RECORDS = 10_000;

/** One attempt waiting for an in-flight slot, the books it belongs to, and who hears its outcome (`undefined`: dropped by a reset or a stop). */
interface Job {
  readonly delivery: DeliveryRecord;
  readonly books: Books;
  readonly redelivery: boolean;
  readonly done: (attempt: DeliveryAttempt | undefined) => void;
}

/** Which tenants a call reaches: one (`tenantId`), or every one. */
interface TenantScope {
  readonly tenantId?: string | undefined;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new TypeError(`createWebhookDispatcher: ${name} must be a number > 0`);
  return value;
}

const byOrder = (a: EventEntry, b: EventEntry) => a.order - b.order;

/**
 * Creates the mock's webhook delivery engine. Events are signed with `signWebhook` (Standard
 * Webhooks), retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all, the
 * waits divided by `timeScale`), and a subscription whose attempts have all failed for 5 days is
 * deactivated through `onDeactivate`. Time comes only from `now` and IDs only from `newEventId`:
 * no timers, no randomness, so a test drives retries by moving its clock and calling `runDue`
 * (the standalone server calls it from a timer). At most `concurrency` attempts are in flight, and
 * each tenant keeps at most `maxRecords` deliveries and events. Everything keyed by subscription
 * (its pending deliveries, its run of failures, its deactivation) is kept per tenant, since a
 * subscription ID is unique within its tenant only.
 *
 * @param options - the clock, the ID source, and optionally `fetch`, `onDeactivate`, `onAttempt`, `onEvent`, `timeoutMs`, `concurrency`, `timeScale`, `maxRecords`, `secretsOf`, `elapsedMs`
 * @returns the dispatcher
 * @throws {TypeError} for a `concurrency`, `timeScale` or `maxRecords` that is not > 0
 * @example
 * ```ts
 * const dispatcher = createWebhookDispatcher({ now: () => clock, newEventId: () => ids.next() });
 * dispatcher.emit("page.version.published", { pageId }, subscriptions, "tenant_a");
 * await dispatcher.runDue(); // first attempts
 * clock = new Date(clock.getTime() + 5_000);
 * await dispatcher.runDue(); // retries of the failed ones
 * ```
 */
export function createWebhookDispatcher(options: WebhookDispatcherOptions) {
  const { now, newEventId, onDeactivate, onAttempt, onEvent, secretsOf, timeoutMs = WEBHOOK_ATTEMPT_TIMEOUT_MS, onChange } = options;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const concurrency = positive(options.concurrency, Infinity, "concurrency");
  const timeScale = positive(options.timeScale, 1, "timeScale");
  const maxRecords = positive(options.maxRecords, DEFAULT_MAX_WEBHOOK_RECORDS, "maxRecords");
  const elapsedMs = options.elapsedMs ?? (() => now().getTime());

  /** Each tenant's books. */
  let ledger = new Map<string | null, Books>();
  let generation = 0;
  let sequence = 0;
  let eventOrder = 0;
  /** Aborts the attempts of this generation (a reset) and, through `options.signal`, of every one (a stop). */
  let stopAttempts = new AbortController();
  const stopped = () => options.signal?.aborted === true;
  /** The books of a tenant, opened on first use. */
  const booksOf = (tenantId: string | null): Books => {
    let books = ledger.get(tenantId);
    if (books === undefined) ledger.set(tenantId, (books = openBooks(tenantId)));
    return books;
  };
  /** Still the books the tenant keeps (not forgotten by its reset, its deletion or a reset of everything since). */
  const current = (books: Books) => ledger.get(books.tenantId) === books;
  const scoped = ({ tenantId }: TenantScope): Books[] => {
    if (tenantId === undefined) return [...ledger.values()];
    const books = ledger.get(tenantId);
    return books === undefined ? [] : [books];
  };
  /**
   * The one concurrency limit: scheduled attempts and redeliveries wait in one line, first come
   * first served; an attempt holds its slot until it has ended, across a reset too. A scheduled
   * attempt whose delivery settled while it waited (deactivated, trimmed, its tenant reset) goes without a slot.
   */
  const line = createSlotLine<Job>(
    concurrency,
    (job) => {
      if (!stopped() && current(job.books) && (job.redelivery || job.delivery.status === "pending")) return true;
      drop([job]);
      return false;
    },
    (jobs) => makeAttempts(jobs),
  );
  options.signal?.addEventListener("abort", () => {
    stopAttempts.abort(options.signal!.reason);
    drop(line.clear());
  });

  function settle(books: Books, record: DeliveryRecord, status: DeliveryStatus): void {
    record.status = status;
    record.nextAttemptAt = null;
    removePending(books, record);
    onChange?.({ kind: "delivery", delivery: saved(record) });
  }

  /** A subscription of a tenant starts (`since`) or ends (`null`) a run of failures. */
  function failing(books: Books, subscriptionId: string, since: number | null): void {
    if (since === null) books.failingSince.delete(subscriptionId);
    else books.failingSince.set(subscriptionId, since);
    onChange?.({ kind: "failing", tenantId: books.tenantId, subscriptionId, since });
  }

  /** Keeps a tenant's records bounded: forgets its oldest settled deliveries first, then its oldest pending ones. */
  function trim(books: Books): void {
    while (books.records.length > maxRecords) {
      const index = books.records.findIndex((record) => record.status !== "pending" && !record.claimed);
      const [dropped] = books.records.splice(index === -1 ? 0 : index, 1);
      if (dropped!.status === "pending") settle(books, dropped!, "cancelled");
      onChange?.({ kind: "forget-delivery", sequence: dropped!.sequence });
    }
    if (books.events.length > maxRecords) {
      onChange?.({ kind: "forget-events", tenantId: books.tenantId, count: books.events.length - maxRecords });
      books.events = books.events.slice(books.events.length - maxRecords);
    }
  }

  /** After a failed scheduled attempt: the next one, or `failed` after the last; 5 days of failures deactivate the subscription. */
  function retry(books: Books, delivery: DeliveryRecord, attempt: number, at: Date): void {
    const next = nextAttemptTime(attempt, at, timeScale);
    if (next === null) settle(books, delivery, "failed");
    else delivery.nextAttemptAt = next;
    const { subscriptionId } = delivery;
    let since = books.failingSince.get(subscriptionId);
    if (since === undefined) failing(books, subscriptionId, (since = at.getTime()));
    if ((at.getTime() - since) * timeScale < WEBHOOK_DEACTIVATE_AFTER_MS) return;
    failing(books, subscriptionId, null);
    for (const record of [...(books.pending.get(subscriptionId) ?? [])]) settle(books, record, "cancelled");
    onDeactivate?.({ tenantId: books.tenantId, subscriptionId });
  }

  /** Records one attempt's outcome on its delivery, schedules the retry or settles the delivery, and tells `onAttempt`. */
  function conclude({ delivery, books, redelivery }: Job, outcome: AttemptOutcome, at: Date): DeliveryAttempt {
    if (!redelivery) delivery.claimed = false;
    const { eventId, subscriptionId } = delivery;
    const attempt: DeliveryAttempt = { eventId, subscriptionId, attempt: delivery.attempts.length + 1, at: at.toISOString(), ...outcome, redelivery };
    delivery.attempts.push(attempt);
    // A redelivery is outside the schedule: its success settles a pending or failed delivery, its failure changes nothing but the record.
    if (outcome.ok && (!redelivery || delivery.status !== "succeeded")) {
      if (books.failingSince.has(subscriptionId)) failing(books, subscriptionId, null);
      settle(books, delivery, "succeeded");
    } else if (!outcome.ok && !redelivery && delivery.status === "pending") {
      retry(books, delivery, attempt.attempt, at); // (not pending: cancelled while in flight, its subscription already off)
    }
    onChange?.({ kind: "delivery", delivery: saved(delivery) });
    onAttempt?.(attempt, snapshot(delivery));
    return attempt;
  }

  /** Ends jobs that will never be sent: their deliveries are free for a later run. */
  function drop(jobs: readonly Job[]): void {
    for (const job of jobs) {
      if (!job.redelivery) job.delivery.claimed = false;
      job.done(undefined);
    }
  }

  /** Makes the attempts that just took their slots, as one run at the time now: signed together, sent in the order they waited. */
  function makeAttempts(jobs: Job[]): void {
    const at = now();
    const started = generation;
    const inputs = jobs.map(({ books, delivery: { eventId, tenantId, subscriptionId, url, body, secret } }) => ({
      eventId,
      url,
      body,
      secrets: secretsOf?.({ tenantId, subscriptionId }) ?? [secret],
      signal: books.stop.signal,
    }));
    void attemptAll(inputs, at, { fetch: send, timeoutMs, elapsedMs, signal: stopAttempts.signal }, (index, outcome) => {
      const job = jobs[index]!;
      // Reset (the whole mock or the job's tenant) or stopped while in flight: the outcome is not the receiver's to record.
      if (started === generation && !stopped() && current(job.books)) job.done(conclude(job, outcome, at));
      else drop([job]);
      line.release();
    });
  }

  /** Lines one attempt per delivery up behind those already waiting; resolves with the attempts made, in order (none after a reset or a stop). */
  async function enqueue(redelivery: boolean, deliveries: readonly (readonly [Books, DeliveryRecord])[]): Promise<DeliveryAttempt[]> {
    if (stopped()) return [];
    const started = generation;
    if (!redelivery) for (const [, delivery] of deliveries) delivery.claimed = true;
    const jobs: Job[] = [];
    const made = deliveries.map(
      ([books, delivery]) => new Promise<DeliveryAttempt | undefined>((done) => jobs.push({ delivery, books, redelivery, done })),
    );
    line.push(jobs);
    const attempts = (await Promise.all(made)).filter((attempt) => attempt !== undefined);
    return started === generation ? attempts : [];
  }

  /** Forgets every record of every tenant; attempts in flight are aborted, unrecorded, and keep their slots until they end. */
  function reset(): void {
    generation += 1;
    stopAttempts.abort(new DOMException("The webhook deliveries were reset.", "AbortError"));
    stopAttempts = new AbortController();
    drop(line.clear());
    ledger = new Map();
  }

  return {
    /**
     * Creates an event of a tenant and queues one delivery per active target that wants its kind,
     * due at once, in the target's tenant's books; returns the event as its body carries it.
     */
    emit(kind: WebhookEventKind, data: JsonObject, targets: readonly WebhookTarget[], tenantId?: string): WebhookEvent {
      const at = now();
      const event: WebhookEvent = { id: newEventId(), type: kind, createdAt: at.toISOString(), data };
      const body = JSON.stringify(event);
      const owner = booksOf(tenantId ?? null);
      owner.events.push({ tenantId: owner.tenantId, event, order: eventOrder++ });
      onChange?.({ kind: "event", tenantId: owner.tenantId, event });
      const seen = new Set<string>();
      const touched = new Set<Books>([owner]);
      for (const target of targets) {
        if (!target.active || (target.events !== null && !target.events.includes(kind)) || seen.has(target.id)) continue;
        seen.add(target.id);
        const books = booksOf(target.tenantId ?? tenantId ?? null);
        const delivery: DeliveryRecord = {
          sequence: sequence++,
          eventId: event.id,
          type: kind,
          tenantId: books.tenantId,
          subscriptionId: target.id,
          url: target.url,
          secret: target.secret,
          body,
          status: "pending",
          attempts: [],
          nextAttemptAt: at,
          claimed: false,
        };
        books.records.push(delivery);
        addPending(books, delivery);
        touched.add(books);
        onChange?.({ kind: "delivery", delivery: saved(delivery) });
      }
      for (const books of touched) trim(books);
      try {
        onEvent?.(event);
      } catch {
        // The listener's failure is its own: the event stands.
      }
      return event;
    },

    /**
     * Makes every attempt due by `now()` (`all`: every pending one; `tenantId`: that tenant's only),
     * in the order they fell due; resolves once all of them have ended.
     */
    runDue(runOptions: { readonly all?: boolean } & TenantScope = {}): Promise<DeliveryAttempt[]> {
      const at = now();
      const due: [Books, DeliveryRecord][] = [];
      for (const books of scoped(runOptions)) {
        for (const queue of books.pending.values()) {
          for (const delivery of queue) {
            if (delivery.claimed || delivery.nextAttemptAt === null) continue;
            if (runOptions.all === true || delivery.nextAttemptAt <= at) due.push([books, delivery]);
          }
        }
      }
      due.sort(([, a], [, b]) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || a.sequence - b.sequence);
      return enqueue(false, due);
    },

    /** Sends an event again, now, to every subscription it was delivered to: the same `webhook-id` and body, a new signature. */
    redeliver(eventId: string, scope: TenantScope = {}): Promise<DeliveryAttempt[]> {
      const deliveries = scoped(scope).flatMap((books) =>
        books.records.filter((record) => record.eventId === eventId).map((record) => [books, record] as const),
      );
      deliveries.sort(([, a], [, b]) => a.sequence - b.sequence);
      return enqueue(true, deliveries);
    },

    /** The deliveries kept (of one tenant, or of every one), in the order they were made. */
    list(scope: TenantScope = {}): Delivery[] {
      const books = scoped(scope);
      const records = books.length === 1 ? books[0]!.records : books.flatMap((b) => b.records).sort((a, b) => a.sequence - b.sequence);
      return records.map(snapshot);
    },

    /** The events kept (of one tenant, or of every one), oldest first, with their tenant. */
    events(scope: TenantScope = {}): { readonly tenantId: string | null; readonly event: WebhookEvent }[] {
      const books = scoped(scope);
      const entries = books.length === 1 ? books[0]!.events : books.flatMap((b) => b.events).sort(byOrder);
      return entries.map(({ tenantId, event }) => ({ tenantId, event }));
    },

    /** Whether a tenant's books hold an event. */
    hasEvent: (eventId: string, tenantId: string): boolean => ledger.get(tenantId)?.events.some((entry) => entry.event.id === eventId) ?? false,

    /** How many attempts are in flight now (not counting those waiting for a slot). */
    inFlight: () => line.held(),

    /**
     * Forgets one tenant's events, deliveries and runs of failures (its reset or deletion): its
     * pending deliveries are cancelled, its attempts in flight aborted and left unrecorded, and
     * no other tenant's books are touched.
     */
    forgetTenant(tenantId: string): void {
      const books = ledger.get(tenantId);
      if (books === undefined) return;
      ledger.delete(tenantId);
      books.stop.abort(new DOMException("The tenant's webhook deliveries were reset.", "AbortError"));
      for (const record of books.records) if (record.status === "pending") settle(books, record, "cancelled");
      onChange?.({ kind: "forget-tenant", tenantId });
    },

    /** Every event, delivery (attempts and schedule included) and run of failures, as a state file keeps them. */
    save: (): SavedWebhooks => saveLedger(ledger.values()),

    /**
     * Replaces every event, delivery and run of failures with saved ones (after a restart): the
     * pending deliveries are due at their saved time, so `runDue` resumes the schedule.
     */
    restore(state: SavedWebhooks): void {
      reset();
      const next = restoreLedger(state, booksOf, () => eventOrder++);
      if (next !== undefined) sequence = next;
    },

    reset,
  };
}
