/**
 * The public shape of a mock (`MockApi`), on its own so that the routes built on a mock (the
 * control API's) and `createMockApi`, which builds those routes, can both name it.
 * @module
 */

import type { WebhookEvent } from "../src/schemas/index.js";
import type { MockFaults } from "./faults/faults.js";
import type { MockChanges } from "./observe/changes.js";
import type { LoggedRequest, RequestLog } from "./observe/request-log.js";
import type { MockState } from "./state/index.js";
import type { Delivery, DeliveryAttempt } from "./webhooks/index.js";

/** What the mock produced for one request: a response, or a dropped connection. */
export type Outcome = { readonly kind: "response"; readonly response: Response } | { readonly kind: "network-error" };

/** Which tenant a call of `api.webhooks` keeps to (every tenant when `tenantId` is omitted). */
export interface WebhookScope {
  /** Only this tenant's events or deliveries. */
  readonly tenantId?: string;
}

/** `api.webhooks`: the events and deliveries that state changes caused, and the triggers for attempts. */
export interface MockWebhooks {
  /** Every delivery kept (each tenant's latest 10,000 by default), in the order queued, with its attempts; `tenantId` keeps to one tenant. */
  list(options?: WebhookScope): readonly Delivery[];
  /** Every event kept, oldest first, with the tenant it belongs to (also those no subscription wanted); `tenantId` keeps to one tenant. */
  events(options?: WebhookScope): readonly { readonly tenantId: string | null; readonly event: WebhookEvent }[];
  /**
   * Makes every attempt due by the mock's clock (first attempts at once, retries on schedule);
   * past the concurrency limit they wait their turn. `{ all: true }` makes every pending retry
   * now; `tenantId` keeps to one tenant.
   */
  runDue(options?: { readonly all?: boolean; readonly tenantId?: string }): Promise<DeliveryAttempt[]>;
  /**
   * Sends an event again, now, to each subscription it was delivered to: same `webhook-id`, new
   * timestamp and signature, within the same concurrency limit; `tenantId` keeps to one tenant.
   */
  redeliver(eventId: string, options?: WebhookScope): Promise<DeliveryAttempt[]>;
  /** How many attempts are in flight now. */
  inFlight(): number;
}

/**
 * One tenant's part of a mock: the faults that apply to its requests only, its requests, and a
 * reset of its own. Tests running side by side each take one and never see each other's.
 */
export interface MockTenant {
  /** The tenant's ID: pass it as `tenantId` to `api.state` helpers. */
  readonly tenantId: string;
  /** Faults for this tenant's requests only; `clear()` and `pending()` keep to its own. */
  readonly faults: MockFaults;
  /** The requests this tenant made since it was created or reset, oldest first. */
  requests(): LoggedRequest[];
  /**
   * Back to the tenant's start: the data the configured fixtures give it (none for a tenant made by
   * `isolate()`), its faults, requests, events, deliveries and inbox messages forgotten. Its keys
   * stay valid; other tenants are not touched.
   */
  reset(): void;
  /**
   * Ends a tenant made by `isolate()` (or `POST /__mock/tenants`): its data, keys, faults,
   * requests, events, deliveries and inbox messages are gone, its attempts in flight aborted, and
   * it no longer counts against `maxTenants`. Other tenants are not touched. Deleting it again does nothing.
   * @throws {MockStateError} for a tenant `isolate()` did not make (a configured one: reset it instead)
   */
  delete(): void;
  /** The same as {@link MockTenant.delete}, for `using tenant = api.isolate()` and disposable fixtures. */
  [Symbol.dispose](): void;
}

/** A tenant made for one test by `api.isolate()`, with the key that reaches it (a secret: never log it). */
export interface IsolatedTenant extends MockTenant {
  /** Send it as `x-api-key` (`createClient({ apiKey })`): it reaches this tenant only. */
  readonly apiKey: string;
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
  /**
   * A new, empty tenant and a new random key for it, for one test: its data, faults, request log
   * and reset are its own, so concurrent tests sharing one mock never see each other's. Works with
   * `api.fetch`, the MSW handlers and the server alike (it is just a key). `tenant.delete()` (or
   * disposing of it) ends it; `api.reset()` removes every one.
   * @throws {MockStateError} when the mock already holds `maxTenants` isolated tenants (delete one first)
   */
  isolate(): IsolatedTenant;
  /**
   * The faults, requests and reset of an existing tenant (a configured one, say).
   * @throws {MockStateError} for an unknown tenant
   */
  tenant(tenantId: string): MockTenant;
  /** Back to the initial state: the configured tenants and keys, fixtures re-run, IDs restarted, faults, log and deliveries cleared. */
  reset(): void;
}
