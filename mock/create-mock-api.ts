/**
 * `createMockApi`: the reference implementation of the API on in-memory state, answered by one
 * handler over one route table (the API's operations, the control API, the built-in inbox, the
 * OpenAPI documents). `api.fetch` and `api.handle` are its fetch adapter. Web standards only
 * (Request, Response, URL, Web Crypto): it runs in Node, browsers, Deno, Bun and workers, and
 * never needs msw.
 * @module
 */

import { createInbox } from "./control/inbox.js";
import { controlRoute } from "./control/route.js";
import { CONTROL_ROUTES } from "./control/routes.js";
import { untilAborted } from "./lib/abort.js";
import { MockStateError } from "./lib/errors.js";
import { createIdFactory, type IdFactory } from "./lib/ids.js";
import { createRandom } from "./lib/random.js";
import type { MockApi, MockTenant, Outcome } from "./mock-api.js";
import { documentRoutes } from "./openapi/routes.js";
import { apiRoutes } from "./operations/index.js";
import { type MockApiOptions, resolveOptions } from "./options.js";
import { type AuthResult, authenticate } from "./pipeline/auth.js";
import { createChangeFeed, createWriteTracker } from "./pipeline/changes.js";
import { createFaults } from "./pipeline/faults.js";
import { createHandler, type HandlerOptions, type MockHandler } from "./pipeline/handler.js";
import { fromFetchRequest, toFetchResponse } from "./pipeline/request.js";
import { createRequestLog, type LoggedRequest } from "./pipeline/request-log.js";
import type { Route } from "./pipeline/route.js";
import { createMockState, type MockState } from "./state/index.js";
import type { Journal } from "./state/journal.js";
import { loadStore, type SavedState, saveStore } from "./state/saved-state.js";
import { restoreStore } from "./state/snapshot.js";
import { createStore, type EventSink, STREAMS, type Store, timestamp } from "./state/store.js";
import type { TenantData } from "./state/tenant-data.js";
import { createTenant, newApiKey, removeTenant, replaceTenantData } from "./state/tenants.js";
import { createWebhookDispatcher } from "./webhooks/index.js";

export type { IsolatedTenant, MockApi, MockTenant, MockWebhooks, Outcome, WebhookScope } from "./mock-api.js";

/**
 * What the adapters built on the core (the server) reuse from it instead of keeping their own
 * copy: the one handler, authentication, the seeded request IDs and the request log. Not public:
 * reached through {@link coreOf}.
 */
export interface MockCore {
  /**
   * A handler over the mock's route table plus an adapter's own routes (the server's console),
   * with what the adapter adds (the server's `Host`/`Origin` checks, a latency, a hook).
   */
  createHandler(options?: Partial<HandlerOptions>): MockHandler;
  /** The tenant of a request's `x-api-key`, or the 401 problem to answer. */
  authenticate(headers: Pick<Headers, "get">): AuthResult;
  /** A new `req_` ID from the mock's seeded source. */
  newRequestId(): string;
  /** Changes how many answered requests the log keeps. */
  retainRequests(limit: number): void;
  /** Replaces the state with a snapshot of this mock's (`api.state.snapshot()`); throws `MockStateError`, changing nothing, for anything else. */
  restoreState(snapshot: string): void;
  /** The whole state, API keys and webhook deliveries included, as live records: serialize it before the next write. */
  saveState(): SavedState;
  /** Replaces the whole state (keys and webhook deliveries included) with a validated saved one; the journal hears nothing of it. */
  loadState(state: SavedState): void;
  /** Sets where every change of the state is reported from now on, across resets (`null`: nowhere). */
  setJournal(journal: Journal | null): void;
}

const cores = new WeakMap<MockApi, MockCore>();

/** The key of a disposal (`using`): the language's own symbol, or the one TypeScript's helpers use where the runtime has none. */
const DISPOSE: typeof Symbol.dispose = Symbol.dispose ?? (Symbol.for("Symbol.dispose") as typeof Symbol.dispose);

/** The events of a start state built apart (a tenant's reset): made, never delivered. */
const quietSink =
  (store: () => Store): EventSink =>
  (type, data) => ({ id: store().newEventId(), type, createdAt: timestamp(store()), data });

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
  const startKeys: ReadonlySet<string> = new Set(resolved.keys.map(({ key }) => key));
  // A reader's entries are checked against its own keys and the start keys only: reading costs its own entries, whatever else the mock holds.
  const requestLog = createRequestLog(
    { all: () => current().apiKeys.keys(), of: (tenantId) => [...current().apiKeys.keysOf(tenantId), ...startKeys] },
    resolved.retainedRequests,
  );
  const changes = createChangeFeed();
  const writes = createWriteTracker();
  const current = () => store;
  const state = createMockState(current);
  const inbox = createInbox(state, current, () => new Date(store.nowMs()));
  let requestIds: IdFactory;
  let store: Store;
  /** Where every change goes (a state file's journal); none in process. */
  let journal: Journal | null = null;

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
    onChange: (change) => journal?.({ op: "webhooks", change }),
    // The subscription of that tenant only: an ID is unique within its tenant alone.
    onDeactivate({ tenantId, subscriptionId }) {
      const tenant = tenantId === null ? undefined : store.tenants.get(tenantId);
      const record = tenant?.subscriptions.get(subscriptionId);
      if (tenant === undefined || record === undefined || !record.active) return;
      record.active = false;
      record.updatedAt = timestamp(store);
      tenant.subscriptions.set(record.id, record); // stored again: the journal hears of the change
    },
  });

  function initialise(): void {
    requestIds = createIdFactory(createRandom(resolved.seed, STREAMS.requests));
    writes.clear();
    store = createStore({
      clock: resolved.clock,
      seed: resolved.seed,
      journal: (change) => (writes.hear(change), journal?.(change)),
      sink: (kind, data, targets, tenantId) => {
        const event = dispatcher.emit(kind, data, targets, tenantId);
        changes.announce(tenantId, { kind: "event", type: kind });
        return event;
      },
    });
    startTenantIds = seedStart(store, state);
    startTenants = new Set(store.tenants.keys());
  }
  /** The IDs the configured tenants got at the start (generated ones too), so a start state built again gives them the same. */
  let startTenantIds: readonly string[];
  /** The tenants of the start state: only their reset needs the start state built again. */
  let startTenants: ReadonlySet<string>;
  initialise();

  /**
   * The configured tenants and keys, then the fixtures: what a store holds at the start.
   * @param ids - the IDs the configured tenants got the first time (a generated ID holds the time it was made)
   * @returns the configured tenants' IDs, in order
   */
  function seedStart(into: Store, over: MockState, ids: readonly string[] = []): string[] {
    const byTenant = new Map<string | undefined, string[]>();
    for (const { key, tenantId } of resolved.keys) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), key]);
    const made = [...byTenant].map(([configured, apiKeys], index) => {
      const id = configured ?? ids[index];
      return createTenant(into, id === undefined ? { apiKeys } : { id, apiKeys }).id;
    });
    resolved.fixtures?.(over);
    return made;
  }

  /** What the mock keeps of a tenant beside its data: its faults, logged requests, events, deliveries and inbox messages. */
  function forgetAround(tenantId: string): void {
    faults.clearTenant(tenantId);
    requestLog.forgetTenant(tenantId);
    dispatcher.forgetTenant(tenantId);
    inbox.forgetTenant(tenantId);
  }

  /**
   * One tenant back to its start: its data as a start state built apart gives it (empty for a
   * tenant made later), its faults, logged requests, events, deliveries and inbox messages
   * forgotten; its keys kept.
   */
  function resetTenant(tenantId: string): void {
    replaceTenantData(store, tenantId, startTenants.has(tenantId) ? startDataOf(tenantId) : undefined);
    forgetAround(tenantId);
    changes.announce(tenantId, { kind: "reset" });
  }

  /** Ends an isolated tenant: its data and keys (journaled), and everything the mock keeps beside them. */
  function deleteTenant(tenantId: string): void {
    removeTenant(store, tenantId);
    forgetAround(tenantId);
    // Its live views follow their key to its tenant after a reset: the key is gone, so they end.
    changes.announce(tenantId, { kind: "reset" });
  }

  /** A tenant's data in the start state, built apart (its events made, never delivered). */
  function startDataOf(tenantId: string): TenantData | undefined {
    const start = createStore({ clock: resolved.clock, seed: resolved.seed, sink: quietSink(() => start) });
    seedStart(
      start,
      createMockState(() => start),
      startTenantIds,
    );
    return start.tenants.get(tenantId);
  }

  const scopeOf = (tenantId: string): MockTenant => {
    if (!store.tenants.has(tenantId)) throw new MockStateError(`no tenant ${JSON.stringify(tenantId)}`);
    /** The store the scope was made for: a reset of the whole mock has removed the tenant (a configured one is made anew). */
    const made = store;
    const end = () => {
      if (made === store && store.tenants.has(tenantId)) deleteTenant(tenantId);
    };
    return {
      tenantId,
      faults: faults.forTenant(tenantId),
      requests: () => requestsOf(tenantId),
      reset: () => resetTenant(tenantId),
      delete: end,
      [DISPOSE]: end,
    };
  };

  const record = (entry: LoggedRequest): void => {
    requestLog.record(entry);
    const wrote = writes.tookWrites(entry.requestId);
    if (entry.tenantId === null) return;
    changes.announce(entry.tenantId, () => ({ kind: "request", request: requestLog.viewOf(entry) }));
    if (wrote) changes.announce(entry.tenantId, { kind: "state" });
  };
  const requestsOf = (tenantId: string) => requestLog.ofTenant(tenantId, store.tenants.size <= 1);

  let routes: readonly Route[] = [];
  const makeHandler = (extra: Partial<HandlerOptions> = {}): MockHandler =>
    createHandler(
      {
        store: current,
        basePath: resolved.basePath,
        newRequestId: (atMs) => requestIds.next("req", atMs),
        faults,
        record,
      },
      // The adapter's routes first: the proxy's take the place of the API's own (the first match answers).
      { ...extra, routes: [...(extra.routes ?? []), ...routes] },
    );

  const toOutcome = (response: Awaited<ReturnType<MockHandler>>): Outcome =>
    response === null ? { kind: "network-error" } : { kind: "response", response: toFetchResponse(response) };
  let handler: MockHandler;
  const handle = (request: Request): Promise<Outcome> => handler(fromFetchRequest(request)).then(toOutcome);

  const api: MockApi = {
    async fetch(input, init) {
      const request = new Request(input, init);
      if (request.signal.aborted) throw request.signal.reason;
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
      list: (scope) => dispatcher.list(scope),
      events: (scope) => dispatcher.events(scope),
      runDue: (runOptions) => dispatcher.runDue(runOptions),
      redeliver: (eventId, scope) => dispatcher.redeliver(eventId, scope),
      inFlight: () => dispatcher.inFlight(),
    },
    changes,
    baseUrl: resolved.baseUrl,
    isolate() {
      if (store.tenants.isolatedCount >= resolved.maxTenants) {
        throw new MockStateError(
          `the mock holds ${resolved.maxTenants} isolated tenants, its limit (maxTenants, the server's --max-tenants): delete one (tenant.delete(), DELETE /__mock/tenants/{id}) before making another`,
        );
      }
      const apiKey = newApiKey();
      const { id } = createTenant(store, { apiKeys: [apiKey] }, true);
      return { ...scopeOf(id), apiKey };
    },
    tenant: scopeOf,
    reset() {
      journal?.({ op: "reset" });
      faults.api.clear();
      requestLog.api.clear();
      dispatcher.reset();
      inbox.clear();
      initialise();
      changes.announce(null, { kind: "reset" });
    },
  };

  // The one route table: the API's operations, the control API (the inbox among it), the documents.
  routes = [
    ...apiRoutes(current).map(writes.track),
    ...CONTROL_ROUTES.map((route) => controlRoute(route, { api, requestsOf, inbox })),
    ...documentRoutes(resolved.baseUrl),
  ];
  handler = makeHandler();
  cores.set(api, {
    createHandler: makeHandler,
    authenticate: (headers) => authenticate(store, headers),
    newRequestId: () => requestIds.next("req", store.nowMs()),
    retainRequests: requestLog.retain,
    restoreState(snapshot) {
      restoreStore(store, snapshot);
      changes.announce(null, { kind: "reset" }); // live views read the whole state again
    },
    saveState: () => saveStore(store, dispatcher.save()),
    loadState(saved) {
      const listening = journal;
      journal = null;
      try {
        store.inboxIndex.clear(); // the loaded subscriptions are stored again, each heard by the index
        loadStore(store, saved);
        dispatcher.restore(saved.webhooks);
      } finally {
        journal = listening;
      }
      changes.announce(null, { kind: "reset" });
    },
    setJournal(next) {
      journal = next;
    },
  });
  return api;
}
