/**
 * The mock's whole in-memory state: tenants (each with its indexed data) and API keys, plus the
 * clock, the seeded ID source and the webhook emitter every write uses. One store per mock; a
 * reset builds a fresh one, so two mocks, or a mock before and after a reset, never share data.
 * @module
 */
import type { JsonObject, WebhookEvent, WebhookEventKind } from "../../src/schemas/index.js";
import { type Clock, formatTimestamp, readClock } from "../lib/clock.js";
import { MockStateError } from "../lib/errors.js";
import { createIdFactory, type IdPrefix } from "../lib/ids.js";
import { createRandom, randomBytes, type Seed } from "../lib/random.js";
import { webhookSecretFromBytes } from "../webhooks/index.js";
import type { IdRegistry } from "./id-registry.js";
import { createInboxIndex } from "./inbox-index.js";
import type { TenantOption } from "./inputs.js";
import type { Journal } from "./journal.js";
import type { WebhookSubscriptionRecord } from "./records.js";
import type { TenantData } from "./tenant-data.js";
import { ApiKeyMap, TenantMap } from "./tenant-maps.js";

/** The random bytes of a `whsec_` secret. */
const SECRET_BYTES = 24;

/** Random streams of one seed: each kind of value draws from its own, so they never shift each other. */
export const STREAMS = { resources: 0, requests: 1, events: 2, secrets: 3 } as const;

/** Receives the webhook events that state changes cause (the mock's dispatcher), with the tenant they belong to. */
export type EventSink = (kind: WebhookEventKind, data: JsonObject, targets: readonly WebhookSubscriptionRecord[], tenantId: string) => WebhookEvent;

/**
 * Creates an empty store: the state and the services every write needs.
 * @param config - the clock, the seed, where webhook events go and where every write is reported (`journal`)
 */
export function createStore(config: { readonly clock: Clock; readonly seed: Seed; readonly sink: EventSink; readonly journal?: Journal }) {
  const ids = createIdFactory(createRandom(config.seed, STREAMS.resources));
  const eventIds = createIdFactory(createRandom(config.seed, STREAMS.events));
  // Each factory reserves only what it makes: `event_` IDs come from the event stream, every other stored ID from the resource stream.
  const registerId: IdRegistry = (id) => (id.startsWith("event_") ? eventIds : ids).reserve(id);
  const secrets = createRandom(config.seed, STREAMS.secrets);
  const nowMs = (): number => readClock(config.clock);
  const inboxIndex = createInboxIndex();
  const outside = config.journal;
  /** Each tenant's writes so far (records stored, changed or removed). */
  const written = new Map<string, number>();
  // The inbox's index hears every change first: whatever path wrote a subscription, it stays in step.
  const journal: Journal = (change) => {
    if (change.op === "put" || change.op === "delete") written.set(change.tenantId, (written.get(change.tenantId) ?? 0) + 1);
    inboxIndex.hear(change);
    outside?.(change);
  };
  let secretsIssued = 0;
  const newSecret = (): string => {
    secretsIssued += 1;
    journal({ op: "secrets", issued: secretsIssued });
    return webhookSecretFromBytes(randomBytes(secrets, SECRET_BYTES));
  };
  return {
    tenants: new TenantMap(registerId, {
      put: (_id, tenant) => journal({ op: "tenant", value: tenant.record }),
      delete: (tenantId) => journal({ op: "delete-tenant", tenantId }),
    }),
    /** API key → tenant ID, and each tenant's keys. */
    apiKeys: new ApiKeyMap(registerId, {
      put: (key, tenantId) => journal({ op: "key", key, tenantId }),
      delete: (key) => journal({ op: "key", key, tenantId: null }),
    }),
    /** Where every write is reported (a state file's journal). */
    journal,
    /**
     * Where a tenant's data stands now: pass it to {@link wroteSince} after a request ran to learn
     * whether its data changed meanwhile (by that request, or another of the tenant's).
     */
    mark: (tenantId: string): number => written.get(tenantId) ?? 0,
    /** Whether a tenant's data changed (a record stored, changed or removed) since `mark`. */
    wroteSince: (tenantId: string, mark: number): boolean => (written.get(tenantId) ?? 0) !== mark,
    /** Which subscriptions point at each name of the built-in inbox. */
    inboxIndex,
    /** How many secrets were drawn from the secret stream. */
    get secretsIssued(): number {
      return secretsIssued;
    },
    /**
     * Continues a restored state: the ID factories move past every stored ID (so none is made
     * again, and none need be remembered), the secret stream past the secrets already drawn.
     * @param latest - the greatest stored resource ID and event ID
     */
    resume(latest: { readonly resourceId: string | null; readonly eventId: string | null; readonly secretsIssued: number }): void {
      if (latest.resourceId !== null) ids.skipPast(latest.resourceId);
      if (latest.eventId !== null) eventIds.skipPast(latest.eventId);
      for (; secretsIssued < latest.secretsIssued; secretsIssued++) randomBytes(secrets, SECRET_BYTES);
    },
    /** Reports the ID of every record stored (tenants, API keys, every record): generated IDs skip them. */
    registerId,
    /** The tenant state helpers use when no `tenantId` is given: the first one created. */
    defaultTenantId: null as string | null,
    /** The clock, in epoch milliseconds. */
    nowMs,
    /** A new ID with `prefix`, from the resource stream, for the time `atMs` (default: now); never a taken one. */
    newId: (prefix: IdPrefix, atMs?: number): string => ids.next(prefix, atMs ?? nowMs()),
    /** A new `event_` ID, from the event stream, for the current time; never a taken one. */
    newEventId: (): string => eventIds.next("event", nowMs()),
    /** A new `whsec_` secret from the secret stream. */
    newSecret,
    /** Emits a webhook event to the tenant's subscriptions. @returns the event */
    emit: (tenant: TenantData, kind: WebhookEventKind, data: JsonObject): WebhookEvent =>
      config.sink(kind, data, [...tenant.webhookSubscriptions.values()], tenant.record.id),
  };
}

/** The mock's state and the services every write needs. */
export type Store = ReturnType<typeof createStore>;

/** The current time as the API writes it. */
export function timestamp(store: Store): string {
  return formatTimestamp(store.nowMs());
}

/**
 * The tenant a state helper works on: the given one, or the default tenant.
 * @throws {MockStateError} when there is no such tenant
 */
export function tenantFor(store: Store, tenantId: string | undefined): TenantData {
  const id = tenantId ?? store.defaultTenantId;
  const tenant = id === null ? undefined : store.tenants.get(id);
  if (tenant) return tenant;
  throw new MockStateError(
    tenantId === undefined ? "the mock has no tenant yet; create one with state.tenants.create()" : `no tenant ${JSON.stringify(tenantId)}`,
  );
}

/**
 * The `get` and `list` of a state helper over one collection of the tenant: copies, so changing
 * them changes nothing.
 * @param copy - how a record is copied (default: its fields)
 */
export function readers<T extends object>(
  current: () => Store,
  collection: (tenant: TenantData) => ReadonlyMap<string, T>,
  copy: (record: T) => T = (record) => ({ ...record }),
) {
  const of = (options: TenantOption = {}) => collection(tenantFor(current(), options.tenantId));
  return {
    get(id: string, options?: TenantOption): T | undefined {
      const record = of(options).get(id);
      return record && copy(record);
    },
    list: (options?: TenantOption): T[] => [...of(options).values()].map(copy),
  };
}
