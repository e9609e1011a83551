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
  /** The subscription's tenant, kept on its deliveries so they can be listed per tenant. */
  readonly tenantId?: string;
}

/**
 * Sends one request: `globalThis.fetch`, or any `(Request) => Promise<Response>` such as a mock's
 * `api.fetch`. The second argument carries the attempt's own abort signal (the one `request.signal`
 * follows): it aborts when the attempt times out, ends or is stopped, and a sender that holds it
 * releases the connection then.
 */
export type WebhookFetch = (request: Request, init?: { readonly signal: AbortSignal }) => Promise<Response>;

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
  /**
   * How many attempts may be in flight at once (default: no limit): scheduled attempts and
   * redeliveries alike. The excess waits its turn, first come first served, and starts as soon as
   * an attempt ends.
   */
  concurrency?: number;
  /**
   * Runs the retry schedule this many times faster (default 1: the real schedule). With 3600, the
   * 5 s, 5 min, … waits and the 5-day deactivation pass an hour of schedule per second.
   */
  timeScale?: number;
  /** How many deliveries and events are kept (default 10 000 each); past that the oldest settled ones are forgotten first. */
  maxRecords?: number;
  /** The secrets that sign a subscription's attempt now (rotation: two). Default: the target's secret when it was emitted. */
  secretsOf?: (target: { readonly tenantId: string | null; readonly subscriptionId: string }) => readonly string[] | undefined;
  /** A monotonic clock in milliseconds for attempt durations. Default: the `now` clock. */
  elapsedMs?: () => number;
  /** Called once per attempt as soon as its outcome is known, with the delivery after it. */
  onAttempt?: (attempt: DeliveryAttempt, delivery: Delivery) => void;
  /**
   * Stops delivery for good when it aborts (a server shutting down): attempts in flight are
   * aborted and not recorded, waiting ones are dropped, and no attempt starts afterwards.
   */
  signal?: AbortSignal;
}

/**
 * Why an attempt failed: `status` (a non-2xx answer), `redirect` (3xx, never followed), `timeout`,
 * `refused` (connection refused), `dns` (the host name did not resolve), `tls` (the TLS handshake or
 * certificate failed), `network` (another network error) or `signing` (the secret is malformed).
 */
export type AttemptFailureReason = "status" | "redirect" | "timeout" | "refused" | "dns" | "tls" | "network" | "signing";

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
  /** Why it failed, as a word (see {@link AttemptFailureReason}), or `null` on success. */
  readonly reason: AttemptFailureReason | null;
  /** Why it failed (`HTTP 500`, `network error: …`, `timeout after 15000 ms`), or `null` on success. */
  readonly error: string | null;
  /** The first 1 KiB of the answer's body as text, or `null` when nothing answered. */
  readonly response: string | null;
  /** How long the attempt took, in milliseconds. */
  readonly durationMs: number;
  /** True for an attempt made by `redeliver` rather than by the schedule. */
  readonly redelivery: boolean;
}

/** One event on its way to one subscription, with every attempt made so far. */
export interface Delivery {
  readonly eventId: string;
  /** The subscription's tenant (`null` when the target named none). */
  readonly tenantId: string | null;
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
  emit(kind: WebhookEventKind, data: JsonObject, targets: readonly WebhookTarget[], tenantId?: string): WebhookEvent;
  /**
   * Makes every attempt that is due by `now()`, and schedules the retries of the failed ones. Past
   * the concurrency limit the attempts wait their turn; the promise resolves once all of them
   * have ended. With `{ all: true }` every pending delivery counts as due: its retry is made now
   * instead of waiting for the schedule. With `tenantId`, only that tenant's deliveries.
   */
  runDue(options?: { readonly all?: boolean; readonly tenantId?: string }): Promise<DeliveryAttempt[]>;
  /**
   * Sends an event again to every subscription it was delivered to, now: the same `webhook-id` and
   * body, a new timestamp and signature. Outside the schedule but within the concurrency limit
   * (past it, the attempts wait their turn); a success settles a pending or failed delivery, a
   * failure changes nothing but the record.
   * @returns the attempts made (none for an unknown event)
   */
  redeliver(eventId: string): Promise<DeliveryAttempt[]>;
  /** Every delivery kept, in the order they were queued, with its attempts. */
  list(): readonly Delivery[];
  /** Every event kept (delivered to someone or not), oldest first, with its tenant. */
  events(): readonly { readonly tenantId: string | null; readonly event: WebhookEvent }[];
  /** How many attempts are in flight now (not counting those waiting for a slot). */
  inFlight(): number;
  /**
   * Forgets every delivery and failure record; attempts in flight are aborted (their outcomes are
   * not recorded) and keep their slots until they have ended; waiting ones are dropped.
   */
  reset(): void;
}
