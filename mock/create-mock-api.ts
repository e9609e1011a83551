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
import { apiRoutes, MOCK_OPERATIONS } from "./operations/index.js";
import { type MockApiOptions, resolveOptions } from "./options.js";
import { type AuthResult, authenticate } from "./pipeline/auth.js";
import { createChangeFeed, createWriteTracker } from "./pipeline/changes.js";
import { createFaults } from "./pipeline/faults.js";
import { createHandler, type Durability, type HandlerOptions, type MockHandler } from "./pipeline/handler.js";
import { fromFetchRequest, toFetchResponse } from "./pipeline/request.js";
import { createRequestLog, type LoggedRequest } from "./pipeline/request-log.js";
import type { Route } from "./pipeline/route.js";
import { createMockState } from "./state/index.js";
import type { Journal } from "./state/journal.js";
import { loadStore, type SavedState, saveStore } from "./state/saved-state.js";
import { restoreStore } from "./state/snapshot.js";
import { createStartState, quietSink } from "./state/start-state.js";
import { createStore, STREAMS, type Store, timestamp } from "./state/store.js";
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
  /**
   * Replaces the whole state (keys and webhook deliveries included) with a validated saved one;
   * the journal hears nothing of it. The state it replaces is let go whole: a request still
   * holding a part of it changes nothing that is kept (see {@link MockCore.setJournal}).
   */
  loadState(state: SavedState): void;
  /**
   * Sets where every change of the state is reported from now on, across resets (`null`: nowhere).
   * @param onDiscarded - told of each change made to a state that was replaced meanwhile (a
   *   request in flight across a reset or a load): it is kept nowhere
   */
  setJournal(journal: Journal | null, onDiscarded?: () => void): void;
  /** Makes `api.fetch` and `api.handle` keep their writes as the server does (its state file), or not (`null`). */
  setDurability(durability: Durability | null): void;
}

const cores = new WeakMap<MockApi, MockCore>();

/** The key of a disposal (`using`): the language's own symbol, or the one TypeScript's helpers use where the runtime has none. */
const DISPOSE: typeof Symbol.dispose = Symbol.dispose ?? (Symbol.for("Symbol.dispose") as typeof Symbol.dispose);

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
  /** Told of a change made to a store that was replaced meanwhile. */
  let discarded: (() => void) | undefined;
  /** How many stores were made: only the last one's changes and events count. */
  let generation = 0;

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

  /**
   * A new, empty store, the current one from now on. The one it replaces (a reset, a loaded state)
   * is let go whole: a request still holding a part of it changes nothing that is kept: its
   * changes reach no journal (nor the write tracker) and its events no subscriber.
   */
  function newStore(): Store {
    const mine = ++generation;
    const made: Store = createStore({
      clock: resolved.clock,
      seed: resolved.seed,
      journal: (change) => (mine === generation ? (writes.hear(change), journal?.(change)) : discarded?.()),
      sink: (kind, data, targets, tenantId) => {
        if (mine !== generation) return quietSink(() => made)(kind, data, targets, tenantId);
        const event = dispatcher.emit(kind, data, targets, tenantId);
        changes.announce(tenantId, { kind: "event", type: kind });
        return event;
      },
    });
    return made;
  }

  /** How many times the whole mock was reset (`api.reset()`). */
  let resets = 0;

  /** The configured tenants and keys, then the fixtures: what a store holds at the start, and a tenant's reset gives back. */
  const startState = createStartState(resolved);

  function initialise(): void {
    resets += 1;
    requestIds = createIdFactory(createRandom(resolved.seed, STREAMS.requests));
    writes.clear();
    store = newStore();
    startState.seedInto(store, state);
  }
  initialise();

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
   * forgotten; its keys kept. The same whatever the start: a state loaded from a file gets its
   * fixtures back as the first start did.
   */
  function resetTenant(tenantId: string): void {
    replaceTenantData(store, tenantId, startState.dataOf(store, tenantId));
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

  const scopeOf = (tenantId: string): MockTenant => {
    if (!store.tenants.has(tenantId)) throw new MockStateError(`no tenant ${JSON.stringify(tenantId)}`);
    /**
     * The whole-mock reset the scope was made after: a later one has removed the tenant (a
     * configured one is made anew). A state loaded in place (a server's file read again) is no
     * reset: the tenant it still holds is the same one.
     */
    const made = resets;
    const end = () => {
      if (made === resets && store.tenants.has(tenantId)) deleteTenant(tenantId);
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
  const operations = resolved.operations ?? MOCK_OPERATIONS;
  routes = [
    ...apiRoutes(current, operations).map(writes.track),
    ...CONTROL_ROUTES.map((route) => controlRoute(route, { api, requestsOf, inbox })),
    ...documentRoutes(
      resolved.baseUrl,
      operations.map(({ row }) => row),
    ),
  ];
  /** How `api.fetch` keeps its writes: a server's state file, once one is attached. */
  let durability: Durability | null = null;
  handler = makeHandler({
    durability: {
      track: (run) => (durability === null ? run() : durability.track(run)),
      refusal: () => durability?.refusal() ?? null,
      settle: () => durability?.settle() ?? null,
    },
  });
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
        // A new store: its inbox index starts empty and hears each loaded subscription as it is stored again.
        store = newStore();
        loadStore(store, saved);
        dispatcher.restore(saved.webhooks);
      } finally {
        journal = listening;
      }
      changes.announce(null, { kind: "reset" });
    },
    setJournal(next, onDiscarded) {
      journal = next;
      discarded = onDiscarded;
    },
    setDurability(next) {
      durability = next;
    },
  });
  return api;
}
