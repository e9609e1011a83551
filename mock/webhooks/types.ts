import type * as z from "zod/mini";
import type { WebhookEvent as WebhookEventBody } from "../../src/schemas/index.js";
import type { DeliveryAttemptSchema, DeliverySchema } from "./schemas.js";

/** A subscription as the dispatcher needs it: where to send, how to sign, what it wants. */
export interface WebhookTarget {
  /** The subscription ID (unique within its tenant only), passed to `onDeactivate` with the tenant. */
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
 * `api.fetch`. `init.signal` is the attempt's own abort signal (which `request.signal` follows): it
 * aborts when the attempt times out, ends or is stopped, and a sender that holds it releases the
 * connection then.
 */
export type WebhookFetch = (request: Request, init?: { readonly signal: AbortSignal }) => Promise<Response>;

/** Webhook delivery as a mock's user sets it (`createMockApi`'s and `startMockServer`'s `webhooks`). */
export interface WebhookOptions {
  /** Sends an attempt. Default: `globalThis.fetch`, looked up at each attempt. */
  fetch?: WebhookFetch;
  /** How long one attempt may take, the body read included (default 15,000 ms). */
  timeoutMs?: number;
  /** Attempts in flight at once, scheduled and redeliveries alike (default no limit); the excess waits its turn, first come first served. */
  concurrency?: number;
  /** How many times faster the retry schedule and the 5-day deactivation run (default 1). */
  timeScale?: number;
  /** Deliveries and events kept (default 10,000 each); past that the oldest settled ones are forgotten first. */
  maxRecords?: number;
  /** A monotonic clock in milliseconds for attempt durations. Default: the mock's own clock. */
  elapsedMs?: () => number;
  /** Called once per attempt as soon as its outcome is known, with the delivery after it. */
  onAttempt?: (attempt: DeliveryAttempt, delivery: Delivery) => void;
  /**
   * Called once per event as it is emitted, its deliveries already queued and due at once (the
   * standalone server starts sending them right then). An exception it throws is ignored.
   */
  onEvent?: (event: WebhookEventBody) => void;
  /** Stops delivery for good when it aborts: attempts in flight are aborted and not recorded, waiting ones dropped, none starts afterwards. */
  signal?: AbortSignal;
}

/** How a dispatcher gets time, IDs and the network: the user's {@link WebhookOptions} plus the mock's hooks. All injected, so runs are reproducible. */
export interface WebhookDispatcherOptions extends WebhookOptions {
  /** The clock: event times, attempt times and when retries fall due. Never a real timer. */
  now: () => Date;
  /** The next event ID (`event_` + lower-case ULID in the mock). */
  newEventId: () => string;
  /** Called once when a subscription of a tenant is deactivated after 5 days of failures; set its `active` to false. */
  onDeactivate?: (target: { readonly tenantId: string | null; readonly subscriptionId: string }) => void;
  /** The secrets that sign a subscription's attempt now (rotation: two). Default: the target's secret when it was emitted. */
  secretsOf?: (target: { readonly tenantId: string | null; readonly subscriptionId: string }) => readonly string[] | undefined;
  /** Hears every change of the events, deliveries and runs of failures, as it happens (a state file's journal). */
  onChange?: (change: WebhookChange) => void;
}

/**
 * Why an attempt failed: `status` (a non-2xx answer), `redirect` (3xx, never followed), `timeout`,
 * `refused` (connection refused), `dns` (the host name did not resolve), `tls` (the TLS handshake or
 * certificate failed), `network` (another network error) or `signing` (the secret is malformed).
 */
export type AttemptFailureReason = NonNullable<DeliveryAttempt["reason"]>;

/**
 * Where a delivery stands: `pending` (an attempt is due at `nextAttemptAt`), `succeeded`,
 * `failed` (all 8 attempts failed) or `cancelled` (its subscription was deactivated).
 */
export type DeliveryStatus = Delivery["status"];

/** One HTTP attempt to deliver an event to a subscription (see `DeliveryAttemptSchema`). */
export interface DeliveryAttempt extends Readonly<z.output<typeof DeliveryAttemptSchema>> {}

/** One event on its way to one subscription, with every attempt made so far (see `DeliverySchema`). */
export interface Delivery extends Readonly<Omit<z.output<typeof DeliverySchema>, "attempts">> {
  readonly attempts: readonly DeliveryAttempt[];
}

/** A saved delivery. */
export type SavedDelivery = Delivery & { readonly sequence: number; readonly secret: string };
/** When a subscription of a tenant began its current run of failures (epoch ms). */
export type FailingSince = readonly [tenantId: string | null, subscriptionId: string, since: number];

/** The dispatcher's state as saved (see `SavedWebhooksSchema`). */
export interface SavedWebhooks {
  readonly events: readonly { readonly tenantId: string | null; readonly event: WebhookEventBody }[];
  readonly deliveries: readonly SavedDelivery[];
  /** Each failing subscription's first failure: `[tenantId, subscriptionId, since]` (a subscription ID is unique within its tenant only). */
  readonly failingSince: readonly FailingSince[];
}

/**
 * One change of the dispatcher's state: an event emitted, a delivery made or changed (the whole
 * delivery after the change), a delivery or a tenant's oldest events forgotten (the bound on a
 * tenant's records), a subscription of a tenant starting (`since`) or ending (`null`) a run of
 * failures, or everything of a tenant forgotten (its reset or deletion).
 */
export type WebhookChange =
  | { readonly kind: "event"; readonly tenantId: string | null; readonly event: WebhookEventBody }
  | { readonly kind: "delivery"; readonly delivery: SavedDelivery }
  | { readonly kind: "forget-delivery"; readonly sequence: number }
  | { readonly kind: "forget-events"; readonly tenantId: string | null; readonly count: number }
  | { readonly kind: "failing"; readonly tenantId: string | null; readonly subscriptionId: string; readonly since: number | null }
  | { readonly kind: "forget-tenant"; readonly tenantId: string };
