/**
 * The public shape of a mock (`MockApi`), on its own so that the routes built on a mock (the
 * control API's) and `createMockApi`, which builds those routes, can both name it.
 * @module
 */

import type { WebhookEvent } from "../src/schemas/index.js";
import type { MockChanges } from "./pipeline/changes.js";
import type { MockFaults } from "./pipeline/faults.js";
import type { RequestLog } from "./pipeline/request-log.js";
import type { MockState } from "./state/index.js";
import type { Delivery, DeliveryAttempt } from "./webhooks/index.js";

/** What the mock produced for one request: a response, or a dropped connection. */
export type Outcome = { readonly kind: "response"; readonly response: Response } | { readonly kind: "network-error" };

/** `api.webhooks`: the events and deliveries that state changes caused, and the triggers for attempts. */
export interface MockWebhooks {
  /** Every delivery kept (the latest 10,000 by default), in the order queued, with its attempts. */
  list(): readonly Delivery[];
  /** Every event kept, oldest first, with the tenant it belongs to (also those no subscription wanted). */
  events(): readonly { readonly tenantId: string | null; readonly event: WebhookEvent }[];
  /**
   * Makes every attempt due by the mock's clock (first attempts at once, retries on schedule);
   * past the concurrency limit they wait their turn. `{ all: true }` makes every pending retry
   * now; `tenantId` keeps to one tenant.
   */
  runDue(options?: { readonly all?: boolean; readonly tenantId?: string }): Promise<DeliveryAttempt[]>;
  /**
   * Sends an event again, now, to each subscription it was delivered to: same `webhook-id`, new
   * timestamp and signature, within the same concurrency limit.
   */
  redeliver(eventId: string): Promise<DeliveryAttempt[]>;
  /** How many attempts are in flight now. */
  inFlight(): number;
}

/** A mock of the API. */
export interface MockApi {
  /**
   * A standard fetch function answering from the mock, without any interception: pass it to
   * `createClient({ fetch: api.fetch })`. Rejects with a `TypeError` only for a dropped
   * connection (an injected fault) or an invalid request, and with the signal's reason on abort,
   * exactly like `fetch`.
   */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /**
   * Answers one request without fetch's semantics: a response, or `{ kind: "network-error" }`
   * for a dropped connection. For adapters (MSW handlers, an HTTP server). Never rejects.
   */
  handle(request: Request): Promise<Outcome>;
  /** Drive and inspect the data. */
  readonly state: MockState;
  /** Arm faults for the next calls. */
  readonly faults: MockFaults;
  /** Every request answered since creation or the last reset. */
  readonly requests: RequestLog;
  /** Webhook deliveries. */
  readonly webhooks: MockWebhooks;
  /** What just changed, per tenant: answered requests, emitted events, resets (for live views). */
  readonly changes: MockChanges;
  /** The base URL served (origin and path, no trailing slash, no `/v0`). */
  readonly baseUrl: string;
  /** Back to the initial state: the configured tenants and keys, fixtures re-run, IDs restarted, faults, log and deliveries cleared. */
  reset(): void;
}
