/**
 * A mock's runtime: one object whose named ports are what the mock is made of, each built once
 * and reached by name: the store (the current one: a reset or a loaded state replaces it whole),
 * the journal (where the store's changes go: the state file's hooks, when the server attached
 * them), the request log, the change feed, the webhook deliveries, the faults and the inbox. Its
 * methods are what changes more than one port at once: a reset of the whole mock or of a
 * tenant, a tenant's deletion, a state saved and loaded. `createMock` builds the public `MockApi`
 * and the handler on it.
 * @module
 */
import { createInbox, type Inbox } from "./control/inbox.js";
import { createFaults, type FaultRegistry } from "./faults/faults.js";
import { MockStateError } from "./lib/errors.js";
import { createIdFactory, type IdFactory } from "./lib/ids.js";
import { createRandom } from "./lib/random.js";
import type { MockTenant } from "./mock-api.js";
import { createChangeFeed, type MockChanges } from "./observe/changes.js";
import { createRequestLog, type LoggedRequest, type RequestLogCore } from "./observe/request-log.js";
import type { ResolvedOptions } from "./options.js";
import type { Durability } from "./pipeline/steps/durability.js";
import { createMockState, type MockState } from "./state/index.js";
import type { StateChange } from "./state/journal.js";
import { loadStore } from "./state/persist/load.js";
import { type SavedState, saveStore } from "./state/persist/saved-state.js";
import { createStartState, quietSink } from "./state/start-state.js";
import { createStore, STREAMS, type Store, timestamp } from "./state/store.js";
import { createTenant, newApiKey, removeTenant, replaceTenantData } from "./state/tenants.js";
import { createWebhookDispatcher } from "./webhooks/index.js";

/** What a state file attaches to a mock (the server's `--state`). */
export interface StateFileHooks {
  /** Hears every change of the state, across resets. */
  journal(change: StateChange): void;
  /** Told of each change made to a state that was replaced meanwhile (a request in flight across a reset or a load): it is kept nowhere. */
  onDiscarded(): void;
  /** How a request's writes are kept before it is answered: the server's requests and `api.fetch` alike. */
  readonly durability: Durability;
}

/** The key of a disposal (`using`): the language's own symbol, or the one TypeScript's helpers use where the runtime has none. */
const DISPOSE: typeof Symbol.dispose = Symbol.dispose ?? (Symbol.for("Symbol.dispose") as typeof Symbol.dispose);

/** A mock's runtime: its ports, and what changes several of them at once. */
export class MockRuntime {
  /** The faults armed, per tenant. */
  readonly faults: FaultRegistry = createFaults();
  /** The requests answered, per tenant. */
  readonly requestLog: RequestLogCore;
  /** What live views hear: requests, writes, events, deliveries, resets. */
  readonly changes: MockChanges = createChangeFeed();
  /** `api.state`, over whatever store is current. */
  readonly state: MockState;
  /** The built-in inbox's messages. */
  readonly inbox: Inbox;
  /** The webhook deliveries. */
  readonly deliveries: ReturnType<typeof createWebhookDispatcher>;
  /** The state file's hooks (the server's `--state`), or none: where the journal goes. */
  stateFile: StateFileHooks | null = null;

  /** The store, the request IDs (restarted from the seed) and how many whole-mock resets came before them: what a reset replaces. */
  #store!: Store;
  #requestIds!: IdFactory;
  #resets = 0;
  readonly #options: ResolvedOptions;
  readonly #startState: ReturnType<typeof createStartState>;

  /** @param options - the mock's options, resolved */
  constructor(options: ResolvedOptions) {
    this.#options = options;
    const startKeys: readonly string[] = options.keys.map(({ key }) => key);
    // A reader's entries are checked against its own keys and the start keys only: reading costs its own entries, whatever else the mock holds.
    this.requestLog = createRequestLog(
      { all: () => this.store.apiKeys.keys(), of: (tenantId) => [...this.store.apiKeys.keysOf(tenantId), ...startKeys] },
      options.retainedRequests,
      new URL(options.baseUrl).origin,
    );
    this.state = createMockState(() => this.store);
    this.inbox = createInbox(
      this.state,
      () => this.store,
      () => new Date(this.store.nowMs()),
    );
    this.deliveries = createWebhookDispatcher({
      now: () => new Date(this.store.nowMs()),
      newEventId: () => this.store.newEventId(),
      ...options.webhooks,
      // Live views read the deliveries again after each attempt, as soon as it has ended.
      onAttempt: (attempt, delivery) => {
        options.webhooks.onAttempt?.(attempt, delivery);
        if (delivery.tenantId !== null) this.changes.announce(delivery.tenantId, { kind: "deliveries" });
      },
      secretsOf: ({ tenantId, subscriptionId }) =>
        tenantId === null || !this.store.tenants.has(tenantId)
          ? undefined
          : this.state.webhookSubscriptions.signingSecrets(subscriptionId, { tenantId }),
      onChange: (change) => this.stateFile?.journal({ op: "webhooks", change }),
      // The subscription of that tenant only: an ID is unique within its tenant alone.
      onDeactivate: ({ tenantId, subscriptionId }) => {
        const tenant = tenantId === null ? undefined : this.store.tenants.get(tenantId);
        const record = tenant?.webhookSubscriptions.get(subscriptionId);
        if (tenant === undefined || record === undefined || !record.active) return;
        record.active = false;
        record.updatedAt = timestamp(this.store);
        tenant.webhookSubscriptions.set(record.id, record); // stored again: the journal hears of the change
      },
    });
    this.#startState = createStartState(options);
    this.#begin();
  }

  /** The current store. */
  get store(): Store {
    return this.#store;
  }

  /** A new `req_` ID from the mock's seeded source, for the time `atMs` (default: now). */
  newRequestId(atMs = this.store.nowMs()): string {
    return this.#requestIds.next("req", atMs);
  }

  /** The entries of one tenant's requests (with those no key made while it is the only tenant). */
  requestsOf(tenantId: string): LoggedRequest[] {
    return this.requestLog.ofTenant(tenantId, this.store.tenants.size <= 1);
  }

  /** Keeps an answered request and tells the tenant's live views of it (and of its write). */
  record(entry: LoggedRequest, wrote: boolean): void {
    this.requestLog.record(entry);
    if (entry.tenantId === null) return;
    this.changes.announce(entry.tenantId, () => ({ kind: "request", request: this.requestLog.viewOf(entry) }));
    if (wrote) this.changes.announce(entry.tenantId, { kind: "state" });
  }

  /**
   * A new, empty store. Once another replaces it (a reset, a loaded state) it is let go whole: a
   * request still holding a part of it changes nothing that is kept: its changes reach no journal
   * and its events no subscriber.
   */
  #newStore(): Store {
    const made: Store = createStore({
      clock: this.#options.clock,
      seed: this.#options.seed,
      journal: (change) => (made === this.store ? this.stateFile?.journal(change) : this.stateFile?.onDiscarded()),
      sink: (kind, data, targets, tenantId) => {
        if (made !== this.store) return quietSink(() => made)(kind, data, targets, tenantId);
        const event = this.deliveries.emit(kind, data, targets, tenantId);
        this.changes.announce(tenantId, { kind: "event", type: kind });
        return event;
      },
    });
    return made;
  }

  /** Begins from the start state: a new store, seeded; request IDs from the seed. */
  #begin(): void {
    this.#store = this.#newStore();
    this.#requestIds = createIdFactory(createRandom(this.#options.seed, STREAMS.requests));
    this.#startState.seedInto(this.#store, this.state);
  }

  /** Everything back to the start (`api.reset()`): the state, the faults, the log, the deliveries, the inbox. */
  reset(): void {
    this.stateFile?.journal({ op: "reset" });
    this.faults.api.clear();
    this.requestLog.api.clear();
    this.deliveries.reset();
    this.inbox.clear();
    this.#resets += 1;
    this.#begin();
    this.changes.announce(null, { kind: "reset" });
  }

  /** What the mock keeps of a tenant beside its data: its faults, logged requests, events, deliveries and inbox messages. */
  #forgetAround(tenantId: string): void {
    this.faults.clearTenant(tenantId);
    this.requestLog.forgetTenant(tenantId);
    this.deliveries.forgetTenant(tenantId);
    this.inbox.forgetTenant(tenantId);
  }

  /**
   * One tenant back to its start: its data as a start state built apart gives it (empty for a
   * tenant made later), what the mock keeps beside it forgotten; its keys kept. The same whatever
   * the start: a state loaded from a file gets its fixtures back as the first start did.
   */
  resetTenant(tenantId: string): void {
    replaceTenantData(this.store, tenantId, this.#startState.dataOf(this.store, tenantId));
    this.#forgetAround(tenantId);
    this.changes.announce(tenantId, { kind: "reset" });
  }

  /** Ends an isolated tenant: its data and keys (journaled), and everything the mock keeps beside them. */
  deleteTenant(tenantId: string): void {
    removeTenant(this.store, tenantId);
    this.#forgetAround(tenantId);
    // Its live views follow their key to its tenant after a reset: the key is gone, so they end.
    this.changes.announce(tenantId, { kind: "reset" });
  }

  /**
   * A tenant's scope (`api.tenant(id)`, `api.isolate()`).
   * @throws {MockStateError} for a tenant the mock does not hold
   */
  scopeOf(tenantId: string): MockTenant {
    if (!this.store.tenants.has(tenantId)) throw new MockStateError(`no tenant ${JSON.stringify(tenantId)}`);
    // A later whole-mock reset has removed the tenant (a configured one is made anew); a state loaded in place is no reset.
    const resets = this.#resets;
    const end = () => {
      if (resets === this.#resets && this.store.tenants.has(tenantId)) this.deleteTenant(tenantId);
    };
    return {
      tenantId,
      faults: this.faults.forTenant(tenantId),
      requests: () => this.requestsOf(tenantId),
      reset: () => this.resetTenant(tenantId),
      delete: end,
      [DISPOSE]: end,
    };
  }

  /**
   * A tenant made for one test, with a key of its own (`api.isolate()`).
   * @throws {MockStateError} when the mock holds `maxTenants` of them already
   */
  isolate(): MockTenant & { readonly apiKey: string } {
    const { maxTenants } = this.#options;
    if (this.store.tenants.isolatedCount >= maxTenants) {
      throw new MockStateError(
        `the mock holds ${maxTenants} isolated tenants, its limit (maxTenants, the server's --max-tenants): delete one (tenant.delete(), DELETE /__mock/tenants/{id}) before making another`,
      );
    }
    const apiKey = newApiKey();
    const { id } = createTenant(this.store, { apiKeys: [apiKey] }, true);
    return { ...this.scopeOf(id), apiKey };
  }

  /** The whole state, API keys and webhook deliveries included, as live records: serialize it before the next write. */
  save(): SavedState {
    return saveStore(this.store, this.deliveries.save());
  }

  /**
   * Replaces the whole state with a validated saved one; the journal hears nothing of it. The
   * store it replaces is let go whole.
   * @throws {MockStateError} for a collection holding one record twice
   */
  load(saved: SavedState): void {
    const listening = this.stateFile;
    this.stateFile = null;
    try {
      // A new store: its inbox index starts empty and hears each loaded subscription as it is stored again.
      this.#store = this.#newStore();
      loadStore(this.store, saved);
      this.deliveries.restore(saved.webhooks);
    } finally {
      this.stateFile = listening;
    }
    this.changes.announce(null, { kind: "reset" });
  }
}
