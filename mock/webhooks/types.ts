import type { JsonObject, WebhookEvent, WebhookEventKind } from "../../src/schemas/index.js";

/** A subscription as the dispatcher needs it: where to send, how to sign, what it wants. */
export interface WebhookTarget {
  /** The subscription ID, passed to `onDeactivate`. */
  readonly id: string;
  /** The endpoint that receives the POST. */
  readonly url: string;
  /** The subscription's `whsec_` secret that signs each attempt. */
  readonly secret: string;
  /** The kinds it receives, or `null` for every kind. */
  readonly events: readonly string[] | null;
  /** Inactive subscriptions receive nothing. */
  readonly active: boolean;
}

/** Sends one request: `globalThis.fetch`, or any `(Request) => Promise<Response>` such as a mock's `api.fetch`. */
export type WebhookFetch = (request: Request) => Promise<Response>;

/** How a dispatcher gets time, IDs and the network. Everything is injected, so runs are reproducible. */
export interface WebhookDispatcherOptions {
  /** The clock: event times, attempt times and when retries fall due. Never a real timer. */
  now: () => Date;
  /** Sends an attempt. Default: `globalThis.fetch`, looked up at each attempt. */
  fetch?: WebhookFetch;
  /** The next event ID (`event_` + lower-case ULID in the mock). */
  newEventId: () => string;
  /** Called once when a subscription is deactivated after 5 days of failures; set its `active` to false. */
  onDeactivate?: (subscriptionId: string) => void;
  /** How long one attempt may take before it counts as failed. Default 15 000 ms. */
  timeoutMs?: number;
}

/**
 * Where a delivery stands: `pending` (an attempt is due at `nextAttemptAt`), `succeeded`,
 * `failed` (all 8 attempts failed) or `cancelled` (its subscription was deactivated).
 */
export type DeliveryStatus = "pending" | "succeeded" | "failed" | "cancelled";

/** One HTTP attempt to deliver an event to a subscription. */
export interface DeliveryAttempt {
  readonly eventId: string;
  readonly subscriptionId: string;
  /** 1 for the first attempt, up to 8. */
  readonly attempt: number;
  /** When the attempt was made (ISO 8601, from the injected clock). */
  readonly at: string;
  /** True for a 2xx answer. */
  readonly ok: boolean;
  /** The answer's HTTP status, or `null` after a network error or a timeout. */
  readonly status: number | null;
  /** Why it failed (`HTTP 500`, `network error: …`, `timeout after 15000 ms`), or `null` on success. */
  readonly error: string | null;
}

/** One event on its way to one subscription, with every attempt made so far. */
export interface Delivery {
  readonly eventId: string;
  readonly type: WebhookEventKind;
  readonly subscriptionId: string;
  readonly url: string;
  /** The exact JSON body every attempt sends. */
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  /** When the next attempt is due (ISO 8601), or `null` when none will be made. */
  readonly nextAttemptAt: string | null;
}

/** Delivers webhook events with Standard Webhooks signing and the Svix retry schedule, on an injected clock. */
export interface WebhookDispatcher {
  /**
   * Creates an event and queues one delivery per active target that wants its kind. The first
   * attempts are due at once; {@link WebhookDispatcher.runDue} makes them.
   * @returns the event as its body carries it
   */
  emit(kind: WebhookEventKind, data: JsonObject, targets: readonly WebhookTarget[]): WebhookEvent;
  /** Makes every attempt that is due by `now()`, and schedules the retries of the failed ones. */
  runDue(): Promise<DeliveryAttempt[]>;
  /** Every delivery, in the order they were queued, with its attempts. */
  list(): readonly Delivery[];
  /** Forgets every delivery and failure record; attempts still in flight are ignored. */
  reset(): void;
}
