/**
 * `createMockApi`: the reference implementation of the API on in-memory state, answered by one
 * handler over one route table (the API's operations, the control API, the built-in inbox, the
 * OpenAPI documents). `api.fetch` and `api.handle` are its fetch adapter. Web standards only
 * (Request, Response, URL, Web Crypto): it runs in Node, browsers, Deno, Bun and workers, and
 * never needs msw. The standalone server builds on {@link createMock}, which gives it the mock's
 * {@link MockHost} beside the public `MockApi`.
 * @module
 */

import { createInbox } from "./control/inbox.js";
import { controlRoute } from "./control/route.js";
import { CONTROL_ROUTES } from "./control/routes.js";
import { createFaults } from "./faults/faults.js";
import { untilAborted } from "./lib/abort.js";
import { MockStateError } from "./lib/errors.js";
import { createIdFactory, type IdFactory } from "./lib/ids.js";
import { createRandom } from "./lib/random.js";
import type { MockApi, MockTenant, Outcome } from "./mock-api.js";
import { createChangeFeed, createWriteCounter } from "./observe/changes.js";
import { createRequestLog, type LoggedRequest } from "./observe/request-log.js";
import { documentRoutes } from "./openapi/routes.js";
import { apiRoutes, MOCK_OPERATIONS } from "./operations/index.js";
import { type MockApiOptions, resolveOptions } from "./options.js";
import { type AuthResult, authenticate } from "./pipeline/auth.js";
import { createHandler, type HandlerAdapter, type HandlerCore, type MockHandler } from "./pipeline/handler.js";
import { fromFetchRequest, toFetchResponse } from "./pipeline/request.js";
import type { Durability } from "./pipeline/steps/durability.js";
import { createMockState } from "./state/index.js";
import type { Journal } from "./state/journal.js";
import { loadStore } from "./state/persist/load.js";
import { type SavedState, saveStore } from "./state/persist/saved-state.js";
import { createStartState, quietSink } from "./state/start-state.js";
import { createStore, STREAMS, type Store, timestamp } from "./state/store.js";
import { createTenant, newApiKey, removeTenant, replaceTenantData } from "./state/tenants.js";
import { createWebhookDispatcher } from "./webhooks/index.js";

export type { IsolatedTenant, MockApi, MockTenant, MockWebhooks, Outcome, WebhookScope } from "./mock-api.js";

/** What a state file attaches to a mock (the server's `--state`). */
export interface StateFileHooks {
  /** Hears every change of the state, across resets. */
  readonly journal: Journal;
  /** Told of each change made to a state that was replaced meanwhile (a request in flight across a reset or a load): it is kept nowhere. */
  onDiscarded(): void;
  /** How a request's writes are kept before it is answered: the server's requests and `api.fetch` alike. */
  readonly durability: Durability;
}

/**
 * What the adapters built on a mock use of it besides its public `MockApi`: the standalone
 * server (a handler with its console's routes, its edge steps, the validating proxy's step and a
 * latency; request IDs for what node's parser refuses), its state file (the whole state saved and
 * loaded, every change journaled, every write kept) and its console (whom a key belongs to).
 * Internal: {@link createMock} hands it to whoever creates the mock; nothing public leads to it.
 */
export interface MockHost {
  /** The mock, as its users see it. */
  readonly api: MockApi;
  /** A handler over the mock's routes, with what an adapter adds (`HandlerAdapter`). */
  handler(adapter?: HandlerAdapter): MockHandler;
  /** The tenant of a request's `x-api-key`, or why there is none. */
  authenticate(headers: Pick<Headers, "get">): AuthResult;
  /** A new `req_` ID from the mock's seeded source, for now. */
  newRequestId(): string;
  /** The whole state, API keys and webhook deliveries included, as live records: serialize it before the next write. */
  save(): SavedState;
  /**
   * Replaces the whole state (keys and webhook deliveries included) with a validated saved one;
   * the journal hears nothing of it. The state it replaces is let go whole: a request still
   * holding a part of it changes nothing that is kept.
   * @throws {MockStateError} for a collection holding one record twice (the state is then the loaded one, half filled: load another)
   */
  load(saved: SavedState): void;
  /** Attaches a state file (its journal and durability), or detaches it (`null`). */
  attach(file: StateFileHooks | null): void;
}

/** What a reset replaces whole: the store, the request IDs (restarted from the seed), and which reset made them. */
interface Life {
  readonly store: Store;
  readonly requestIds: IdFactory;
  /** How many times the whole mock was reset (`api.reset()`) before this life began. */
  readonly resets: number;
}

/** The key of a disposal (`using`): the language's own symbol, or the one TypeScript's helpers use where the runtime has none. */
const DISPOSE: typeof Symbol.dispose = Symbol.dispose ?? (Symbol.for("Symbol.dispose") as typeof Symbol.dispose);

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
  return createMock(options).api;
}

/**
 * Creates a mock and its {@link MockHost} (the standalone server's way in).
 * @param options - as {@link createMockApi}'s
 * @throws {TypeError} for a malformed option
 */
export function createMock(options: MockApiOptions = {}): MockHost {
  const resolved = resolveOptions(options);
  const faults = createFaults();
  const startKeys: ReadonlySet<string> = new Set(resolved.keys.map(({ key }) => key));
  const current = () => life.store;
  // A reader's entries are checked against its own keys and the start keys only: reading costs its own entries, whatever else the mock holds.
  const requestLog = createRequestLog(
    { all: () => current().apiKeys.keys(), of: (tenantId) => [...current().apiKeys.keysOf(tenantId), ...startKeys] },
    resolved.retainedRequests,
  );
  const changes = createChangeFeed();
  const writes = createWriteCounter();
  const state = createMockState(current);
  const inbox = createInbox(state, current, () => new Date(current().nowMs()));
  /** The state file attached (the server's `--state`), or none. */
  let file: StateFileHooks | null = null;

  const dispatcher = createWebhookDispatcher({
    now: () => new Date(current().nowMs()),
    newEventId: () => current().newEventId(),
    ...resolved.webhooks,
    // Live views read the deliveries again after each attempt, as soon as it has ended.
    onAttempt(attempt, delivery) {
      resolved.webhooks.onAttempt?.(attempt, delivery);
      if (delivery.tenantId !== null) changes.announce(delivery.tenantId, { kind: "deliveries" });
    },
    secretsOf: ({ tenantId, subscriptionId }) =>
      tenantId === null || !current().tenants.has(tenantId) ? undefined : state.webhookSubscriptions.signingSecrets(subscriptionId, { tenantId }),
    onChange: (change) => file?.journal({ op: "webhooks", change }),
    // The subscription of that tenant only: an ID is unique within its tenant alone.
    onDeactivate({ tenantId, subscriptionId }) {
      const store = current();
      const tenant = tenantId === null ? undefined : store.tenants.get(tenantId);
      const record = tenant?.webhookSubscriptions.get(subscriptionId);
      if (tenant === undefined || record === undefined || !record.active) return;
      record.active = false;
      record.updatedAt = timestamp(store);
      tenant.webhookSubscriptions.set(record.id, record); // stored again: the journal hears of the change
    },
  });

  /**
   * A new, empty store. Once another replaces it (a reset, a loaded state) it is let go whole: a
   * request still holding a part of it changes nothing that is kept: its changes reach no journal
   * (nor the write counter) and its events no subscriber.
   */
  function newStore(): Store {
    const made: Store = createStore({
      clock: resolved.clock,
      seed: resolved.seed,
      journal: (change) => (made === current() ? (writes.hear(change), file?.journal(change)) : file?.onDiscarded()),
      sink: (kind, data, targets, tenantId) => {
        if (made !== current()) return quietSink(() => made)(kind, data, targets, tenantId);
        const event = dispatcher.emit(kind, data, targets, tenantId);
        changes.announce(tenantId, { kind: "event", type: kind });
        return event;
      },
    });
    return made;
  }

  /** The configured tenants and keys, then the fixtures: what a store holds at the start, and a tenant's reset gives back. */
  const startState = createStartState(resolved);

  /** The one state value of the mock: replaced whole by a reset, its store by a loaded state. */
  let life: Life;
  /** Begins a life from the start state: a new store, seeded; request IDs from the seed. */
  function begin(resets: number): void {
    writes.clear();
    life = { store: newStore(), requestIds: createIdFactory(createRandom(resolved.seed, STREAMS.requests)), resets };
    startState.seedInto(life.store, state);
  }
  begin(0);

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
    replaceTenantData(current(), tenantId, startState.dataOf(current(), tenantId));
    forgetAround(tenantId);
    changes.announce(tenantId, { kind: "reset" });
  }

  /** Ends an isolated tenant: its data and keys (journaled), and everything the mock keeps beside them. */
  function deleteTenant(tenantId: string): void {
    removeTenant(current(), tenantId);
    forgetAround(tenantId);
    // Its live views follow their key to its tenant after a reset: the key is gone, so they end.
    changes.announce(tenantId, { kind: "reset" });
  }

  const scopeOf = (tenantId: string): MockTenant => {
    if (!current().tenants.has(tenantId)) throw new MockStateError(`no tenant ${JSON.stringify(tenantId)}`);
    /**
     * The whole-mock reset the scope was made after: a later one has removed the tenant (a
     * configured one is made anew). A state loaded in place (a server's file read again) is no
     * reset: the tenant it still holds is the same one.
     */
    const { resets } = life;
    const end = () => {
      if (resets === life.resets && current().tenants.has(tenantId)) deleteTenant(tenantId);
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

  const requestsOf = (tenantId: string) => requestLog.ofTenant(tenantId, current().tenants.size <= 1);

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
    handle: (request) => handle(request),
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
      if (current().tenants.isolatedCount >= resolved.maxTenants) {
        throw new MockStateError(
          `the mock holds ${resolved.maxTenants} isolated tenants, its limit (maxTenants, the server's --max-tenants): delete one (tenant.delete(), DELETE /__mock/tenants/{id}) before making another`,
        );
      }
      const apiKey = newApiKey();
      const { id } = createTenant(current(), { apiKeys: [apiKey] }, true);
      return { ...scopeOf(id), apiKey };
    },
    tenant: scopeOf,
    reset() {
      file?.journal({ op: "reset" });
      faults.api.clear();
      requestLog.api.clear();
      dispatcher.reset();
      inbox.clear();
      begin(life.resets + 1);
      changes.announce(null, { kind: "reset" });
    },
  };

  const operations = resolved.operations ?? MOCK_OPERATIONS;
  const core: HandlerCore = {
    store: current,
    basePath: resolved.basePath,
    // The one route table: the API's operations, the control API (the inbox among it), the documents.
    routes: [
      ...apiRoutes(current, operations),
      ...CONTROL_ROUTES.map((route) => controlRoute(route, { api, requestsOf, inbox })),
      ...documentRoutes(
        resolved.baseUrl,
        operations.map(({ row }) => row),
      ),
    ],
    newRequestId: (atMs) => life.requestIds.next("req", atMs),
    faults,
    writes,
    record(entry: LoggedRequest, wrote: boolean) {
      requestLog.record(entry);
      if (entry.tenantId === null) return;
      changes.announce(entry.tenantId, () => ({ kind: "request", request: requestLog.viewOf(entry) }));
      if (wrote) changes.announce(entry.tenantId, { kind: "state" });
    },
    durability: () => file?.durability ?? null,
  };
  const handler = createHandler(core);
  const toOutcome = (response: Awaited<ReturnType<MockHandler>>): Outcome =>
    response === null ? { kind: "network-error" } : { kind: "response", response: toFetchResponse(response) };
  const handle = (request: Request): Promise<Outcome> => handler(fromFetchRequest(request)).then(toOutcome);

  return {
    api,
    handler: (adapter) => createHandler(core, adapter),
    authenticate: (headers) => authenticate(current(), headers),
    newRequestId: () => life.requestIds.next("req", current().nowMs()),
    save: () => saveStore(current(), dispatcher.save()),
    load(saved) {
      const listening = file;
      file = null;
      try {
        // A new store: its inbox index starts empty and hears each loaded subscription as it is stored again.
        life = { ...life, store: newStore() };
        loadStore(current(), saved);
        dispatcher.restore(saved.webhooks);
      } finally {
        file = listening;
      }
      changes.announce(null, { kind: "reset" });
    },
    attach(next) {
      file = next;
    },
  };
}
