/**
 * `createMockApi`: the reference implementation of the API on in-memory state, as a standard
 * fetch function. Web standards only (Request, Response, URL, Web Crypto): it runs in Node,
 * browsers, Deno, Bun and workers, and never needs msw.
 * @module
 */

import type { WebhookEvent } from "../src/schemas/index.js";
import { createChangeFeed, type MockChanges } from "./changes.js";
import { createFaults, type MockFaults } from "./faults.js";
import { type AuthResult, authenticate } from "./http/auth.js";
import { fromFetchRequest, type LightOutcome, type LightRequest } from "./http/light.js";
import type { MaybePromise } from "./http/maybe-async.js";
import { createIdFactory, type IdFactory } from "./ids.js";
import { type MockApiOptions, resolveOptions } from "./options.js";
import { createPipeline, type Outcome, toOutcome } from "./pipeline.js";
import { createRandom } from "./random.js";
import { createRequestLog, type LoggedRequest, type RequestLog } from "./request-log.js";
import { createMockState, type MockState } from "./state/index.js";
import { restoreStore } from "./state/restore.js";
import { createStore, STREAMS, type Store, timestamp } from "./state/store.js";
import { createTenant } from "./state/tenants.js";
import { createWebhookDispatcher, type Delivery, type DeliveryAttempt } from "./webhooks/index.js";

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

/**
 * What the adapters built on the core (the control API, the server) reuse from it instead of
 * keeping their own copy: the one authentication check, the seeded request IDs and the request
 * log. Not public: reached through {@link coreOf}.
 */
export interface MockCore {
  /** The pipeline itself, on a light request (the standalone server's path: no fetch `Request` or `Response` built); at once when nothing makes it wait. */
  answer(request: LightRequest): MaybePromise<LightOutcome>;
  /** The tenant of a request's `x-api-key`, or the 401 problem to answer. */
  authenticate(headers: Headers): AuthResult;
  /** A new `req_` ID from the mock's seeded source. */
  newRequestId(): string;
  /** The logged requests of one tenant, oldest first (with a single tenant, also those no known key made). */
  requestsOf(tenantId: string): LoggedRequest[];
  /** Changes how many answered requests the log keeps. */
  retainRequests(limit: number): void;
  /** Logs a request an adapter answered before the pipeline (the server refusing a foreign `Host` or `Origin`). */
  record(entry: LoggedRequest): void;
  /** The mock's clock, in epoch milliseconds. */
  nowMs(): number;
  /** Replaces the state with a snapshot of this mock's (`api.state.snapshot()`); throws `MockStateError`, changing nothing, for anything else. */
  restoreState(snapshot: string): void;
}

const cores = new WeakMap<MockApi, MockCore>();

/**
 * The core of a mock made by {@link createMockApi}.
 * @param api - the mock
 * @throws {TypeError} for an object that no `createMockApi` made
 */
export function coreOf(api: MockApi): MockCore {
  const core = cores.get(api);
  if (core === undefined) throw new TypeError("not a mock: create one with createMockApi()");
  return core;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

/** Settles with `promise`, or rejects as soon as `signal` aborts (the mock keeps processing, like a server would). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    void promise.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    });
  });
}

/**
 * Creates a mock of the whole API on in-memory state. Two mocks never share anything.
 *
 * @param options - API keys, seed, clock, base URL, fixtures, webhook delivery
 * @returns the mock
 * @throws {TypeError} for a malformed option (a bad base URL, key or clock)
 * @example
 * ```ts
 * import { createMockApi } from "prospectkit/mock";
 * import { createClient } from "prospectkit";
 *
 * const api = createMockApi({ apiKeys: ["test_key"], seed: 1, now: () => new Date("2024-02-29T12:00:00.000Z") });
 * const client = createClient({ apiKey: "test_key", baseUrl: api.baseUrl, fetch: api.fetch });
 * ```
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  const resolved = resolveOptions(options);
  const faults = createFaults();
  const requestLog = createRequestLog(() => current().apiKeys.keys(), resolved.retainedRequests);
  const changes = createChangeFeed();
  const current = () => store;
  const state = createMockState(current);
  let requestIds: IdFactory;
  let store: Store;

  const dispatcher = createWebhookDispatcher({
    now: () => new Date(store.nowMs()),
    newEventId: () => store.newEventId(),
    ...resolved.webhooks,
    // Live views read the deliveries again after each attempt, as soon as it has ended.
    onAttempt(attempt, delivery) {
      resolved.webhooks.onAttempt?.(attempt, delivery);
      if (delivery.tenantId !== null) changes.announce(delivery.tenantId, { kind: "deliveries" });
    },
    secretsOf: ({ tenantId, subscriptionId }) =>
      tenantId === null || !store.tenants.has(tenantId) ? undefined : state.webhookSubscriptions.signingSecrets(subscriptionId, { tenantId }),
    onDeactivate(subscriptionId) {
      for (const tenant of store.tenants.values()) {
        const record = tenant.subscriptions.get(subscriptionId);
        if (record === undefined || !record.active) continue;
        record.active = false;
        record.updatedAt = timestamp(store);
      }
    },
  });

  function initialise(): void {
    requestIds = createIdFactory(createRandom(resolved.seed, STREAMS.requests));
    store = createStore({
      clock: resolved.clock,
      seed: resolved.seed,
      sink: (kind, data, targets, tenantId) => {
        const event = dispatcher.emit(kind, data, targets, tenantId);
        changes.announce(tenantId, { kind: "event", type: kind });
        return event;
      },
    });
    const byTenant = new Map<string | undefined, string[]>();
    for (const { key, tenantId } of resolved.keys) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), key]);
    for (const [id, apiKeys] of byTenant) createTenant(store, id === undefined ? { apiKeys } : { id, apiKeys });
    resolved.fixtures?.(state);
  }
  initialise();

  const newRequestId = (atMs?: number) => requestIds.next("req", atMs ?? store.nowMs());
  const record = (entry: LoggedRequest): void => {
    requestLog.record(entry);
    if (entry.tenantId !== null) changes.announce(entry.tenantId, () => ({ kind: "request", request: requestLog.api.last() ?? entry }));
  };
  const answer = createPipeline({ store: current, basePath: resolved.basePath, newRequestId, takeFaults: faults.take, record });

  const handle = (request: Request): Promise<Outcome> => Promise.resolve(answer(fromFetchRequest(request))).then(toOutcome);

  const api: MockApi = {
    async fetch(input, init) {
      const request = new Request(input, init);
      if (request.signal.aborted) throw abortReason(request.signal);
      // Without a caller's signal (none in `init`, the input not a Request) nothing can abort: no listener to add and remove.
      const abortable = (init?.signal ?? null) !== null || input instanceof Request;
      const outcome = await (abortable ? untilAborted(handle(request), request.signal) : handle(request));
      if (outcome.kind === "network-error") throw new TypeError("fetch failed: the mock dropped the connection (injected fault)");
      return outcome.response;
    },
    handle,
    state,
    faults: faults.api,
    requests: requestLog.api,
    webhooks: {
      list: () => dispatcher.list(),
      events: () => dispatcher.events(),
      runDue: (runOptions) => dispatcher.runDue(runOptions),
      redeliver: (eventId) => dispatcher.redeliver(eventId),
      inFlight: () => dispatcher.inFlight(),
    },
    changes,
    baseUrl: resolved.baseUrl,
    reset() {
      faults.api.clear();
      requestLog.api.clear();
      dispatcher.reset();
      initialise();
      changes.announce(null, { kind: "reset" });
    },
  };
  cores.set(api, {
    answer,
    authenticate: (headers) => authenticate(store, headers),
    newRequestId,
    requestsOf: (tenantId) => requestLog.ofTenant(tenantId, store.tenants.size <= 1),
    retainRequests: requestLog.retain,
    record,
    nowMs: () => store.nowMs(),
    restoreState(snapshot) {
      restoreStore(store, snapshot);
      changes.announce(null, { kind: "reset" }); // live views read the whole state again
    },
  });
  return api;
}
