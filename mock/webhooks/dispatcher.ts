import type { JsonObject, WebhookEvent, WebhookEventKind } from "../../src/schemas/index.js";
import { type AttemptOutcome, attemptAll } from "./attempt.js";
import { nextAttemptTime, WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_DEACTIVATE_AFTER_MS } from "./schedule.js";
import { createSlotLine } from "./slots.js";
import type { Delivery, DeliveryAttempt, DeliveryStatus, SavedDelivery, SavedWebhooks, WebhookDispatcherOptions, WebhookTarget } from "./types.js";

/** How many deliveries and events a dispatcher keeps by default. */
const DEFAULT_MAX_WEBHOOK_RECORDS = 10_000;

/** A delivery as the dispatcher keeps it: the public fields plus the secret and scheduling state. */
interface DeliveryRecord extends Omit<Delivery, "status" | "attempts" | "nextAttemptAt"> {
  readonly sequence: number;
  readonly secret: string;
  status: DeliveryStatus;
  readonly attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  /** A scheduled attempt of it is waiting for a slot or in flight: no other run takes it. */
  claimed: boolean;
}

/** One attempt waiting for an in-flight slot, and who hears its outcome (`undefined`: dropped by a reset or a stop). */
interface Job {
  readonly delivery: DeliveryRecord;
  readonly redelivery: boolean;
  readonly done: (attempt: DeliveryAttempt | undefined) => void;
}

function snapshot({ sequence, secret, claimed, attempts, nextAttemptAt, ...delivery }: DeliveryRecord): Delivery {
  return { ...delivery, attempts: [...attempts], nextAttemptAt: nextAttemptAt?.toISOString() ?? null };
}

function saved(record: DeliveryRecord): SavedDelivery {
  return { ...snapshot(record), sequence: record.sequence, secret: record.secret };
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(value > 0)) throw new TypeError(`createWebhookDispatcher: ${name} must be a number > 0`);
  return value;
}

/**
 * Creates the mock's webhook delivery engine. Events are signed with `signWebhook` (Standard
 * Webhooks), retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all, the
 * waits divided by `timeScale`), and a subscription whose attempts have all failed for 5 days is
 * deactivated through `onDeactivate`. Time comes only from `now` and IDs only from `newEventId`:
 * no timers, no randomness, so a test drives retries by moving its clock and calling `runDue`
 * (the standalone server calls it from a timer). At most `concurrency` attempts are in flight,
 * and at most `maxRecords` deliveries and events are kept.
 *
 * @param options - the clock, the ID source, and optionally `fetch`, `onDeactivate`, `onAttempt`, `onEvent`, `timeoutMs`, `concurrency`, `timeScale`, `maxRecords`, `secretsOf`, `elapsedMs`
 * @returns the dispatcher
 * @throws {TypeError} for a `concurrency`, `timeScale` or `maxRecords` that is not > 0
 * @example
 * ```ts
 * const dispatcher = createWebhookDispatcher({ now: () => clock, newEventId: () => ids.next() });
 * dispatcher.emit("page.version.published", { pageId }, subscriptions);
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

  let records: DeliveryRecord[] = [];
  let events: { readonly tenantId: string | null; readonly event: WebhookEvent }[] = [];
  /** Deliveries with an attempt still to make, by subscription: what runDue looks at and deactivation cancels. */
  let pending = new Map<string, Set<DeliveryRecord>>();
  /** When each subscription's current run of failures began (absent: its last attempt succeeded). */
  let failingSince = new Map<string, number>();
  let generation = 0;
  let sequence = 0;
  /** Aborts the attempts of this generation (a reset) and, through `options.signal`, of every one (a stop). */
  let stopAttempts = new AbortController();
  const stopped = () => options.signal?.aborted === true;
  /**
   * The one concurrency limit: scheduled attempts and redeliveries wait in one line, first come
   * first served; an attempt holds its slot until it has ended, across a reset too. A scheduled
   * attempt whose delivery settled while it waited (deactivated, trimmed) goes without a slot.
   */
  const line = createSlotLine<Job>(
    concurrency,
    (job) => {
      if (!stopped() && (job.redelivery || job.delivery.status === "pending")) return true;
      drop([job]);
      return false;
    },
    (jobs) => makeAttempts(jobs),
  );
  options.signal?.addEventListener("abort", () => {
    stopAttempts.abort(options.signal!.reason);
    drop(line.clear());
  });

  function settle(record: DeliveryRecord, status: DeliveryStatus): void {
    record.status = status;
    record.nextAttemptAt = null;
    const queue = pending.get(record.subscriptionId);
    queue?.delete(record);
    if (queue?.size === 0) pending.delete(record.subscriptionId);
    onChange?.({ kind: "delivery", delivery: saved(record) });
  }

  /** A subscription starts (`since`) or ends (`null`) a run of failures. */
  function failing(subscriptionId: string, since: number | null): void {
    if (since === null) failingSince.delete(subscriptionId);
    else failingSince.set(subscriptionId, since);
    onChange?.({ kind: "failing", subscriptionId, since });
  }

  /** Keeps the record bounded: forgets the oldest settled deliveries first, then the oldest pending ones. */
  function trim(): void {
    while (records.length > maxRecords) {
      const index = records.findIndex((record) => record.status !== "pending" && !record.claimed);
      const [dropped] = records.splice(index === -1 ? 0 : index, 1);
      if (dropped!.status === "pending") settle(dropped!, "cancelled");
      onChange?.({ kind: "forget-delivery", sequence: dropped!.sequence });
    }
    if (events.length > maxRecords) {
      onChange?.({ kind: "forget-events", count: events.length - maxRecords });
      events = events.slice(events.length - maxRecords);
    }
  }

  /** After a failed scheduled attempt: the next one, or `failed` after the last; 5 days of failures deactivate the subscription. */
  function retry(delivery: DeliveryRecord, attempt: number, at: Date): void {
    const next = nextAttemptTime(attempt, at, timeScale);
    if (next === null) settle(delivery, "failed");
    else delivery.nextAttemptAt = next;
    const { subscriptionId } = delivery;
    let since = failingSince.get(subscriptionId);
    if (since === undefined) failing(subscriptionId, (since = at.getTime()));
    if ((at.getTime() - since) * timeScale < WEBHOOK_DEACTIVATE_AFTER_MS) return;
    failing(subscriptionId, null);
    for (const record of [...(pending.get(subscriptionId) ?? [])]) settle(record, "cancelled");
    onDeactivate?.(subscriptionId);
  }

  /** Records one attempt's outcome on its delivery, schedules the retry or settles the delivery, and tells `onAttempt`. */
  function conclude({ delivery, redelivery }: Job, outcome: AttemptOutcome, at: Date): DeliveryAttempt {
    if (!redelivery) delivery.claimed = false;
    const { eventId, subscriptionId } = delivery;
    const attempt: DeliveryAttempt = { eventId, subscriptionId, attempt: delivery.attempts.length + 1, at: at.toISOString(), ...outcome, redelivery };
    delivery.attempts.push(attempt);
    // A redelivery is outside the schedule: its success settles a pending or failed delivery, its failure changes nothing but the record.
    if (outcome.ok && (!redelivery || delivery.status !== "succeeded")) {
      if (failingSince.has(subscriptionId)) failing(subscriptionId, null);
      settle(delivery, "succeeded");
    } else if (!outcome.ok && !redelivery && delivery.status === "pending") {
      retry(delivery, attempt.attempt, at); // (not pending: cancelled while in flight, its subscription already off)
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
    const inputs = jobs.map(({ delivery: { eventId, tenantId, subscriptionId, url, body, secret } }) => ({
      eventId,
      url,
      body,
      secrets: secretsOf?.({ tenantId, subscriptionId }) ?? [secret],
    }));
    void attemptAll(inputs, at, { fetch: send, timeoutMs, elapsedMs, signal: stopAttempts.signal }, (index, outcome) => {
      const job = jobs[index]!;
      if (started === generation && !stopped()) job.done(conclude(job, outcome, at));
      else drop([job]); // reset or stopped while in flight: the outcome is not the receiver's
      line.release();
    });
  }

  /** Lines one attempt per delivery up behind those already waiting; resolves with the attempts made, in order (none after a reset or a stop). */
  async function enqueue(redelivery: boolean, deliveries: readonly DeliveryRecord[]): Promise<DeliveryAttempt[]> {
    if (stopped()) return [];
    const started = generation;
    if (!redelivery) for (const delivery of deliveries) delivery.claimed = true;
    const jobs: Job[] = [];
    const made = deliveries.map((delivery) => new Promise<DeliveryAttempt | undefined>((done) => jobs.push({ delivery, redelivery, done })));
    line.push(jobs);
    const attempts = (await Promise.all(made)).filter((attempt) => attempt !== undefined);
    return started === generation ? attempts : [];
  }

  return {
    /** Creates an event and queues one delivery per active target that wants its kind, due at once; returns the event as its body carries it. */
    emit(kind: WebhookEventKind, data: JsonObject, targets: readonly WebhookTarget[], tenantId?: string): WebhookEvent {
      const at = now();
      const event: WebhookEvent = { id: newEventId(), type: kind, createdAt: at.toISOString(), data };
      const body = JSON.stringify(event);
      events.push({ tenantId: tenantId ?? null, event });
      onChange?.({ kind: "event", tenantId: tenantId ?? null, event });
      const seen = new Set<string>();
      for (const target of targets) {
        if (!target.active || (target.events !== null && !target.events.includes(kind)) || seen.has(target.id)) continue;
        seen.add(target.id);
        const delivery: DeliveryRecord = {
          sequence: sequence++,
          eventId: event.id,
          type: kind,
          tenantId: target.tenantId ?? tenantId ?? null,
          subscriptionId: target.id,
          url: target.url,
          secret: target.secret,
          body,
          status: "pending",
          attempts: [],
          nextAttemptAt: at,
          claimed: false,
        };
        records.push(delivery);
        pending.set(target.id, (pending.get(target.id) ?? new Set()).add(delivery));
        onChange?.({ kind: "delivery", delivery: saved(delivery) });
      }
      trim();
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
    runDue(runOptions: { readonly all?: boolean; readonly tenantId?: string } = {}): Promise<DeliveryAttempt[]> {
      const at = now();
      const due: DeliveryRecord[] = [];
      for (const queue of pending.values()) {
        for (const delivery of queue) {
          if (delivery.claimed || delivery.nextAttemptAt === null) continue;
          if (runOptions.tenantId !== undefined && delivery.tenantId !== runOptions.tenantId) continue;
          if (runOptions.all === true || delivery.nextAttemptAt <= at) due.push(delivery);
        }
      }
      due.sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || a.sequence - b.sequence);
      return enqueue(false, due);
    },

    /** Sends an event again, now, to every subscription it was delivered to: the same `webhook-id` and body, a new signature. */
    redeliver(eventId: string): Promise<DeliveryAttempt[]> {
      const deliveries = records.filter((record) => record.eventId === eventId);
      return enqueue(true, deliveries);
    },

    list: () => records.map(snapshot),

    events: () => [...events],

    /** How many attempts are in flight now (not counting those waiting for a slot). */
    inFlight: () => line.held(),

    /** Forgets one tenant's events and deliveries (a tenant's reset): its pending ones are cancelled; attempts in flight end unrecorded. */
    forgetTenant(tenantId: string): void {
      for (const record of records) if (record.tenantId === tenantId && record.status === "pending") settle(record, "cancelled");
      records = records.filter((record) => record.tenantId !== tenantId);
      events = events.filter((entry) => entry.tenantId !== tenantId);
      onChange?.({ kind: "forget-tenant", tenantId });
    },

    /** Every event, delivery (attempts and schedule included) and run of failures, as a state file keeps them. */
    save(): SavedWebhooks {
      return { events: [...events], deliveries: records.map(saved), failingSince: [...failingSince] };
    },

    /**
     * Replaces every event, delivery and run of failures with saved ones (after a restart): the
     * pending deliveries are due at their saved time, so `runDue` resumes the schedule.
     */
    restore(state: SavedWebhooks): void {
      this.reset();
      events = [...state.events];
      records = [...state.deliveries]
        .sort((a, b) => a.sequence - b.sequence)
        .map((delivery) => ({
          ...delivery,
          attempts: [...delivery.attempts],
          nextAttemptAt: delivery.nextAttemptAt === null ? null : new Date(delivery.nextAttemptAt),
          claimed: false,
        }));
      for (const record of records) {
        if (record.status === "pending") pending.set(record.subscriptionId, (pending.get(record.subscriptionId) ?? new Set()).add(record));
      }
      failingSince = new Map(state.failingSince);
      sequence = records.length === 0 ? 0 : records[records.length - 1]!.sequence + 1;
    },

    /** Forgets every delivery and failure record; attempts in flight are aborted, unrecorded, and keep their slots until they end. */
    reset(): void {
      generation += 1;
      stopAttempts.abort(new DOMException("The webhook deliveries were reset.", "AbortError"));
      stopAttempts = new AbortController();
      drop(line.clear());
      records = [];
      events = [];
      pending = new Map();
      failingSince = new Map();
    },
  };
}
