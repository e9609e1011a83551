import type { JsonObject, WebhookEvent, WebhookEventKind } from "../../src/schemas/index.js";
import { type AttemptInput, type AttemptOutcome, attemptAll } from "./attempt.js";
import { nextAttemptTime, WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_DEACTIVATE_AFTER_MS, WEBHOOK_MAX_ATTEMPTS } from "./schedule.js";
import { createSlotLine } from "./slots.js";
import type { Delivery, DeliveryAttempt, DeliveryStatus, WebhookDispatcher, WebhookDispatcherOptions, WebhookTarget } from "./types.js";

/** How many deliveries and events a dispatcher keeps by default. */
export const DEFAULT_MAX_WEBHOOK_RECORDS = 10_000;

/** A delivery as the dispatcher keeps it: the public fields plus the secret and scheduling state. */
interface DeliveryRecord {
  readonly sequence: number;
  readonly eventId: string;
  readonly type: WebhookEventKind;
  readonly tenantId: string | null;
  readonly subscriptionId: string;
  readonly url: string;
  readonly secret: string;
  readonly body: string;
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

function wants(target: WebhookTarget, kind: WebhookEventKind): boolean {
  return target.active && (target.events === null || target.events.includes(kind));
}

function snapshot(record: DeliveryRecord): Delivery {
  return {
    eventId: record.eventId,
    type: record.type,
    tenantId: record.tenantId,
    subscriptionId: record.subscriptionId,
    url: record.url,
    body: record.body,
    status: record.status,
    attempts: [...record.attempts],
    nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
  };
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
 * @param options - the clock, the ID source, and optionally `fetch`, `onDeactivate`, `onAttempt`, `timeoutMs`, `concurrency`, `timeScale`, `maxRecords`, `secretsOf`, `elapsedMs`
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
export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { now, newEventId, onDeactivate, onAttempt, secretsOf, timeoutMs = WEBHOOK_ATTEMPT_TIMEOUT_MS } = options;
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
  }

  function deactivate(subscriptionId: string): void {
    failingSince.delete(subscriptionId);
    for (const record of [...(pending.get(subscriptionId) ?? [])]) settle(record, "cancelled");
  }

  /** Keeps the record bounded: forgets the oldest settled deliveries first, then the oldest pending ones. */
  function trim(): void {
    while (records.length > maxRecords) {
      const index = records.findIndex((record) => record.status !== "pending" && !record.claimed);
      const [dropped] = records.splice(index === -1 ? 0 : index, 1);
      if (dropped!.status === "pending") settle(dropped!, "cancelled");
    }
    if (events.length > maxRecords) events = events.slice(events.length - maxRecords);
  }

  function addAttempt(delivery: DeliveryRecord, outcome: AttemptOutcome, at: Date, redelivery: boolean): DeliveryAttempt {
    const attempt: DeliveryAttempt = {
      eventId: delivery.eventId,
      subscriptionId: delivery.subscriptionId,
      attempt: delivery.attempts.length + 1,
      at: at.toISOString(),
      ok: outcome.ok,
      status: outcome.status,
      reason: outcome.reason,
      error: outcome.error,
      response: outcome.response,
      durationMs: outcome.durationMs,
      redelivery,
    };
    delivery.attempts.push(attempt);
    return attempt;
  }

  /**
   * Records one scheduled outcome, schedules the retry or settles the delivery, and tracks the
   * subscription's run of failures.
   * @returns true when this failure deactivates the subscription
   */
  function apply(delivery: DeliveryRecord, outcome: AttemptOutcome, at: Date): boolean {
    const attempt = addAttempt(delivery, outcome, at, false);
    if (outcome.ok) {
      failingSince.delete(delivery.subscriptionId);
      settle(delivery, "succeeded");
      return false;
    }
    if (delivery.status !== "pending") return false; // cancelled while in flight: its subscription is already off
    const next = attempt.attempt < WEBHOOK_MAX_ATTEMPTS ? nextAttemptTime(attempt.attempt, at, timeScale) : null;
    if (next === null) settle(delivery, "failed");
    else delivery.nextAttemptAt = next;
    const since = failingSince.get(delivery.subscriptionId) ?? at.getTime();
    failingSince.set(delivery.subscriptionId, since);
    if ((at.getTime() - since) * timeScale < WEBHOOK_DEACTIVATE_AFTER_MS) return false;
    deactivate(delivery.subscriptionId);
    return true;
  }

  const inputOf = (record: DeliveryRecord): AttemptInput => ({
    eventId: record.eventId,
    url: record.url,
    body: record.body,
    secrets: secretsOf?.({ tenantId: record.tenantId, subscriptionId: record.subscriptionId }) ?? [record.secret],
  });

  /** Ends jobs that will never be sent: their deliveries are free for a later run. */
  function drop(jobs: readonly Job[]): void {
    for (const job of jobs) {
      if (!job.redelivery) job.delivery.claimed = false;
      job.done(undefined);
    }
  }

  /** Records one attempt's outcome on its delivery and tells `onAttempt`. */
  function conclude(job: Job, outcome: AttemptOutcome, at: Date): DeliveryAttempt {
    const { delivery } = job;
    let attempt: DeliveryAttempt;
    if (job.redelivery) {
      // Outside the schedule: a success settles a pending or failed delivery, a failure changes nothing but the record.
      attempt = addAttempt(delivery, outcome, at, true);
      if (outcome.ok && delivery.status !== "succeeded") {
        failingSince.delete(delivery.subscriptionId);
        settle(delivery, "succeeded");
      }
    } else {
      delivery.claimed = false;
      const deactivated = apply(delivery, outcome, at);
      attempt = delivery.attempts.at(-1)!;
      if (deactivated) onDeactivate?.(delivery.subscriptionId);
    }
    onAttempt?.(attempt, snapshot(delivery));
    return attempt;
  }

  /** Makes the attempts that just took their slots, as one run at the time now: signed together, sent in the order they waited. */
  function makeAttempts(jobs: Job[]): void {
    const at = now();
    const started = generation;
    const attempting = { fetch: send, timeoutMs, elapsedMs, signal: stopAttempts.signal };
    void attemptAll(
      jobs.map((job) => inputOf(job.delivery)),
      at,
      attempting,
      (index, outcome) => {
        const job = jobs[index]!;
        if (started === generation && !stopped()) job.done(conclude(job, outcome, at));
        else drop([job]); // reset or stopped while in flight: the outcome is not the receiver's
        line.release();
      },
    );
  }

  /** Lines one attempt per delivery up behind those already waiting; resolves with the attempts made, in the same order. */
  async function enqueue(deliveries: readonly DeliveryRecord[], redelivery: boolean): Promise<DeliveryAttempt[]> {
    const jobs: Job[] = [];
    const made = deliveries.map((delivery) => new Promise<DeliveryAttempt | undefined>((done) => jobs.push({ delivery, redelivery, done })));
    line.push(jobs);
    return (await Promise.all(made)).filter((attempt) => attempt !== undefined);
  }

  return {
    emit(kind: WebhookEventKind, data: JsonObject, targets: readonly WebhookTarget[], tenantId?: string): WebhookEvent {
      const at = now();
      const event: WebhookEvent = { id: newEventId(), type: kind, createdAt: at.toISOString(), data };
      const body = JSON.stringify(event);
      events.push({ tenantId: tenantId ?? null, event });
      const seen = new Set<string>();
      for (const target of targets) {
        if (!wants(target, kind) || seen.has(target.id)) continue;
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
        const queue = pending.get(target.id) ?? new Set();
        pending.set(target.id, queue.add(delivery));
      }
      trim();
      return event;
    },

    async runDue(runOptions = {}): Promise<DeliveryAttempt[]> {
      const at = now();
      const started = generation;
      if (stopped()) return [];
      const due: DeliveryRecord[] = [];
      for (const queue of pending.values()) {
        for (const delivery of queue) {
          if (delivery.claimed || delivery.nextAttemptAt === null) continue;
          if (runOptions.tenantId !== undefined && delivery.tenantId !== runOptions.tenantId) continue;
          if (runOptions.all === true || delivery.nextAttemptAt <= at) due.push(delivery);
        }
      }
      if (due.length === 0) return [];
      due.sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || a.sequence - b.sequence);
      for (const delivery of due) delivery.claimed = true;
      const attempts = await enqueue(due, false);
      return started === generation ? attempts : [];
    },

    async redeliver(eventId: string): Promise<DeliveryAttempt[]> {
      const started = generation;
      if (stopped()) return [];
      const attempts = await enqueue(
        records.filter((record) => record.eventId === eventId),
        true,
      );
      return started === generation ? attempts : [];
    },

    list(): readonly Delivery[] {
      return records.map(snapshot);
    },

    events() {
      return [...events];
    },

    inFlight: () => line.held(),

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
