import type { JsonObject, WebhookEvent, WebhookEventKind } from "../../src/schemas/index.js";
import { type AttemptOutcome, attemptAll } from "./attempt.js";
import { nextAttemptTime, WEBHOOK_ATTEMPT_TIMEOUT_MS, WEBHOOK_DEACTIVATE_AFTER_MS, WEBHOOK_MAX_ATTEMPTS } from "./schedule.js";
import type {
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
  WebhookDispatcher,
  WebhookDispatcherOptions,
  WebhookTarget,
} from "./types.js";

/** A delivery as the dispatcher keeps it: the public fields plus the secret and scheduling state. */
interface DeliveryRecord {
  readonly sequence: number;
  readonly eventId: string;
  readonly type: WebhookEventKind;
  readonly subscriptionId: string;
  readonly url: string;
  readonly secret: string;
  readonly body: string;
  status: DeliveryStatus;
  readonly attempts: DeliveryAttempt[];
  nextAttemptAt: Date | null;
  inFlight: boolean;
}

function wants(target: WebhookTarget, kind: WebhookEventKind): boolean {
  return target.active && (target.events === null || target.events.includes(kind));
}

function snapshot(record: DeliveryRecord): Delivery {
  return {
    eventId: record.eventId,
    type: record.type,
    subscriptionId: record.subscriptionId,
    url: record.url,
    body: record.body,
    status: record.status,
    attempts: [...record.attempts],
    nextAttemptAt: record.nextAttemptAt?.toISOString() ?? null,
  };
}

/**
 * Creates the mock's webhook delivery engine. Events are signed with `signWebhook` (Standard
 * Webhooks), retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts in all), and
 * a subscription whose attempts have all failed for 5 days is deactivated through
 * `onDeactivate`. Time comes only from `now` and IDs only from `newEventId`: no timers, no
 * randomness, so a test drives retries by moving its clock and calling `runDue`.
 *
 * @param options - the clock, the ID source, and optionally `fetch`, `onDeactivate` and `timeoutMs`
 * @returns the dispatcher
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
  const { now, newEventId, onDeactivate, timeoutMs = WEBHOOK_ATTEMPT_TIMEOUT_MS } = options;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));

  let records: DeliveryRecord[] = [];
  /** Deliveries with an attempt still to make, by subscription: what runDue looks at and deactivation cancels. */
  let pending = new Map<string, Set<DeliveryRecord>>();
  /** When each subscription's current run of failures began (absent: its last attempt succeeded). */
  let failingSince = new Map<string, number>();
  let generation = 0;

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

  function addAttempt(delivery: DeliveryRecord, outcome: AttemptOutcome, at: Date): DeliveryAttempt {
    const attempt: DeliveryAttempt = {
      eventId: delivery.eventId,
      subscriptionId: delivery.subscriptionId,
      attempt: delivery.attempts.length + 1,
      at: at.toISOString(),
      ...outcome,
    };
    delivery.attempts.push(attempt);
    return attempt;
  }

  /**
   * Records one outcome, schedules the retry or settles the delivery, and tracks the
   * subscription's run of failures.
   * @returns true when this failure deactivates the subscription
   */
  function apply(delivery: DeliveryRecord, outcome: AttemptOutcome, at: Date): boolean {
    const attempt = addAttempt(delivery, outcome, at);
    if (outcome.ok) {
      failingSince.delete(delivery.subscriptionId);
      settle(delivery, "succeeded");
      return false;
    }
    if (delivery.status !== "pending") return false; // cancelled while in flight: its subscription is already off
    const next = attempt.attempt < WEBHOOK_MAX_ATTEMPTS ? nextAttemptTime(attempt.attempt, at) : null;
    if (next === null) settle(delivery, "failed");
    else delivery.nextAttemptAt = next;
    const since = failingSince.get(delivery.subscriptionId) ?? at.getTime();
    failingSince.set(delivery.subscriptionId, since);
    if (at.getTime() - since < WEBHOOK_DEACTIVATE_AFTER_MS) return false;
    deactivate(delivery.subscriptionId);
    return true;
  }

  return {
    emit(kind: WebhookEventKind, data: JsonObject, targets: readonly WebhookTarget[]): WebhookEvent {
      const at = now();
      const event: WebhookEvent = { id: newEventId(), type: kind, createdAt: at.toISOString(), data };
      const body = JSON.stringify(event);
      const seen = new Set<string>();
      for (const target of targets) {
        if (!wants(target, kind) || seen.has(target.id)) continue;
        seen.add(target.id);
        const delivery: DeliveryRecord = {
          sequence: records.length,
          eventId: event.id,
          type: kind,
          subscriptionId: target.id,
          url: target.url,
          secret: target.secret,
          body,
          status: "pending",
          attempts: [],
          nextAttemptAt: at,
          inFlight: false,
        };
        records.push(delivery);
        const queue = pending.get(target.id) ?? new Set();
        pending.set(target.id, queue.add(delivery));
      }
      return event;
    },

    async runDue(): Promise<DeliveryAttempt[]> {
      const at = now();
      const started = generation;
      const due: DeliveryRecord[] = [];
      for (const queue of pending.values()) {
        for (const delivery of queue) {
          if (!delivery.inFlight && delivery.nextAttemptAt !== null && delivery.nextAttemptAt <= at) due.push(delivery);
        }
      }
      due.sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || a.sequence - b.sequence);
      for (const delivery of due) delivery.inFlight = true;

      const outcomes = await attemptAll(due, at, send, timeoutMs);
      if (started !== generation) return [];

      const attempts: DeliveryAttempt[] = [];
      const deactivated: string[] = [];
      due.forEach((delivery, index) => {
        delivery.inFlight = false;
        if (apply(delivery, outcomes[index]!, at)) deactivated.push(delivery.subscriptionId);
        attempts.push(delivery.attempts.at(-1)!);
      });
      for (const subscriptionId of deactivated) onDeactivate?.(subscriptionId);
      return attempts;
    },

    list(): readonly Delivery[] {
      return records.map(snapshot);
    },

    reset(): void {
      generation += 1;
      records = [];
      pending = new Map();
      failingSince = new Map();
    },
  };
}
