/**
 * The one saved-state format: a mock's state as its records, each checked with the API's own
 * schemas ({@link RECORD_SCHEMAS}), stored back by the same helpers the writes use. With its keys
 * (a {@link SavedState}: what a state file keeps, `--state`), it is the whole state: every tenant,
 * the API keys themselves, how many secrets were drawn, the webhook events and deliveries.
 * Without (a {@link StateSnapshot}: `api.state.snapshot()`, and what `persistState` keeps), it is
 * every tenant's data, its keys only counted, as canonical text for byte-for-byte comparison.
 * A state file writes the same records one per line (`state-records.ts`) and replays them
 * (`replay.ts`). Nothing is loaded or restored unless all of it is valid.
 * @module
 */
import * as z from "zod/mini";
import { DEFAULT_PROSPECT_LOG_TYPE, OpaqueId, toFieldErrors } from "../../src/schemas/index.js";
import { canonicalJson } from "../lib/canonical-json.js";
import { MockStateError } from "../lib/errors.js";
import { type SavedWebhooks, type SavedWebhooksLine, SavedWebhooksLineSchema } from "../webhooks/index.js";
import { ApiKey } from "./inputs.js";
import { type Journal, TENANT_COLLECTIONS, type TenantCollection } from "./journal.js";
import { gainIdentifiers, insertProspect } from "./prospects.js";
import {
  IdempotencyRecordSchema,
  PageGroupRecordSchema,
  PageRecordSchema,
  PageVersionRecordSchema,
  ProspectLogRecordSchema,
  ProspectRecordSchema,
  SubscriptionRecordSchema,
  TenantRecordSchema,
} from "./records.js";
import type { Store } from "./store.js";
import { createTenantData, type IdempotencyEntry, storeLog, storePage, storeVersion, type TenantData } from "./tenant-data.js";
import { replaceTenantData } from "./tenants.js";

/** The schema of each collection's records: the one rule for a stored record, whatever form holds it. */
export const RECORD_SCHEMAS = {
  prospects: ProspectRecordSchema,
  prospectLogs: ProspectLogRecordSchema,
  idempotency: IdempotencyRecordSchema,
  pageGroups: PageGroupRecordSchema,
  pages: PageRecordSchema,
  pageVersions: PageVersionRecordSchema,
  webhookSubscriptions: SubscriptionRecordSchema,
} as const satisfies Record<TenantCollection, z.ZodMiniType>;

/** One tenant: its record, how many keys it has, and its records of each collection in insertion order. */
export const TenantSnapshotSchema = z.object({
  tenant: TenantRecordSchema,
  apiKeyCount: z.int().check(z.gte(0)),
  prospects: z.array(RECORD_SCHEMAS.prospects),
  prospectLogs: z.array(RECORD_SCHEMAS.prospectLogs),
  idempotency: z.array(RECORD_SCHEMAS.idempotency),
  pageGroups: z.array(RECORD_SCHEMAS.pageGroups),
  pages: z.array(RECORD_SCHEMAS.pages),
  pageVersions: z.array(RECORD_SCHEMAS.pageVersions),
  webhookSubscriptions: z.array(RECORD_SCHEMAS.webhookSubscriptions),
});
/** One tenant (what {@link TenantSnapshotSchema} accepts). */
export type TenantSnapshot = Omit<z.output<typeof TenantSnapshotSchema>, "idempotency"> & {
  readonly idempotency: readonly ({ readonly key: string } & IdempotencyEntry)[];
};

/** A state without its keys: the default tenant and every tenant's part. */
const StateSnapshotSchema = z.object({ defaultTenantId: z.nullable(OpaqueId), tenants: z.array(TenantSnapshotSchema) });

/**
 * A whole state with its keys, as a format-1 state file's state line holds it: its runs of webhook
 * failures may also be in the form before each tenant kept its own (`[subscriptionId, since]`).
 */
export const SavedStateSchema = z.extend(StateSnapshotSchema, {
  secretsIssued: z.int().check(z.gte(0)),
  apiKeys: z.array(z.tuple([ApiKey, OpaqueId])),
  webhooks: SavedWebhooksLineSchema,
});

/** A state without its keys: every tenant's data, each tenant's keys counted (`api.state.snapshot()`). */
export interface StateSnapshot {
  readonly defaultTenantId: string | null;
  readonly tenants: readonly TenantSnapshot[];
}

/** The whole state of a mock, API keys and webhook deliveries included (never shown: it holds keys and secrets). */
export interface SavedState extends StateSnapshot {
  readonly secretsIssued: number;
  /** Each key and its tenant. */
  readonly apiKeys: readonly (readonly [key: string, tenantId: string])[];
  readonly webhooks: SavedWebhooks;
}

/** A saved state as a format-1 state line holds it (what {@link SavedStateSchema} accepts): runs of failures in either form. */
export type SavedStateLine = Omit<SavedState, "webhooks"> & { readonly webhooks: SavedWebhooksLine };

/** How many API keys each tenant has (a snapshot's only trace of the keys). */
function keyCountsOf(store: Store): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tenantId of store.apiKeys.values()) counts.set(tenantId, (counts.get(tenantId) ?? 0) + 1);
  return counts;
}

/**
 * The state of a store, as live records (serialize it before the next write): without
 * `webhooks`, a snapshot (its keys only counted); with the dispatcher's saved webhooks, the whole state.
 */
export function saveStore(store: Store): StateSnapshot;
export function saveStore(store: Store, webhooks: SavedWebhooks): SavedState;
export function saveStore(store: Store, webhooks?: SavedWebhooks): StateSnapshot | SavedState {
  const keyCounts = keyCountsOf(store);
  const tenants = [...store.tenants.values()].map((tenant) => ({
    tenant: tenant.record,
    apiKeyCount: keyCounts.get(tenant.record.id) ?? 0,
    prospects: [...tenant.prospects.values()],
    prospectLogs: [...tenant.logs.values()],
    idempotency: [...tenant.idempotency].map(([key, entry]) => ({ key, ...entry })),
    pageGroups: [...tenant.pageGroups.values()],
    pages: [...tenant.pages.values()],
    pageVersions: [...tenant.pageVersions.values()],
    webhookSubscriptions: [...tenant.subscriptions.values()],
  }));
  const snapshot = { defaultTenantId: store.defaultTenantId, tenants };
  if (webhooks === undefined) return snapshot;
  return { ...snapshot, secretsIssued: store.secretsIssued, apiKeys: [...store.apiKeys], webhooks };
}

/** A store's snapshot as canonical JSON (`api.state.snapshot()`): equal states give equal strings. */
export function snapshotStore(store: Store): string {
  return canonicalJson(saveStore(store));
}

/**
 * A tenant's data rebuilt from its saved part, stored and indexed by the same helpers the writes use.
 * @param journal - where its records are reported as they are stored (default: the store's)
 */
function rebuild(store: Store, saved: TenantSnapshot, journal: Journal = store.journal): TenantData {
  const tenant = createTenantData(saved.tenant, store.registerId, journal);
  for (const prospect of saved.prospects) gainIdentifiers(tenant, insertProspect(tenant, prospect.id, prospect.createdAt), prospect);
  for (const log of saved.prospectLogs) {
    // The strings a live write shares (one tenant ID, the prospect's ID and creation time, the default type), shared again.
    const prospect = tenant.prospects.get(log.prospectId);
    log.tenantId = tenant.record.id;
    if (log.type === DEFAULT_PROSPECT_LOG_TYPE) log.type = DEFAULT_PROSPECT_LOG_TYPE;
    if (prospect !== undefined) {
      log.prospectId = prospect.id;
      if (log.createdAt === prospect.createdAt) log.createdAt = prospect.createdAt;
    }
    storeLog(tenant, log);
  }
  for (const { key, ...entry } of saved.idempotency) tenant.idempotency.set(key, entry);
  for (const group of saved.pageGroups) tenant.pageGroups.set(group.id, group);
  for (const page of saved.pages) storePage(tenant, page);
  for (const version of saved.pageVersions) storeVersion(tenant, version);
  for (const subscription of saved.webhookSubscriptions) tenant.subscriptions.set(subscription.id, subscription);
  return tenant;
}

/** A reference of a saved state that points nowhere: where it is, and the record that holds it. */
export interface DanglingReference {
  /** A JSON Pointer into the saved state, e.g. `/tenants/0/pages/1/pageGroupId`. */
  readonly pointer: string;
  readonly detail: string;
  /** The record holding it (absent for the state's own fields): its tenant, collection, ID and the field. */
  readonly record?: { readonly tenantId: string; readonly collection: TenantCollection; readonly id: string; readonly field: string };
}

/** The first reference of a saved state (or a snapshot: no keys) that points nowhere, or undefined. */
export function danglingReference(state: StateSnapshot & { readonly apiKeys?: SavedState["apiKeys"] }): DanglingReference | undefined {
  const tenantIds = new Set(state.tenants.map(({ tenant }) => tenant.id));
  if (state.defaultTenantId !== (state.tenants[0]?.tenant.id ?? null)) return { pointer: "/defaultTenantId", detail: "is not the first tenant" };
  for (const [index, [, tenantId]] of (state.apiKeys ?? []).entries()) {
    if (!tenantIds.has(tenantId)) return { pointer: `/apiKeys/${index}/1`, detail: "names no tenant of the state" };
  }
  for (const [t, part] of state.tenants.entries()) {
    const id = part.tenant.id;
    const ids = (list: readonly { id: string }[]) => new Set(list.map((record) => record.id));
    const found = (collection: TenantCollection, i: number, field: string, detail: string): DanglingReference => ({
      pointer: `/tenants/${t}/${collection}/${i}/${field}`,
      detail,
      record: { tenantId: id, collection, id: (part[collection][i] as { id: string }).id, field },
    });
    for (const name of TENANT_COLLECTIONS) {
      if (name === "idempotency") continue;
      const list = part[name] as readonly { tenantId: string }[];
      const i = list.findIndex((record) => record.tenantId !== id);
      if (i !== -1) return found(name, i, "tenantId", "is not the tenant it is stored under");
    }
    const checks: [TenantCollection, readonly Record<string, unknown>[], string, ReadonlySet<string>][] = [
      ["prospectLogs", part.prospectLogs, "prospectId", ids(part.prospects)],
      ["pages", part.pages, "pageGroupId", ids(part.pageGroups)],
      ["pageVersions", part.pageVersions, "pageId", ids(part.pages)],
    ];
    for (const [name, list, field, known] of checks) {
      const i = list.findIndex((record) => !known.has(record[field] as string));
      if (i !== -1) return found(name, i, field, "names no record of the tenant");
    }
    const versions = ids(part.pageVersions);
    const i = part.pages.findIndex((page) => page.publishedVersionId !== null && !versions.has(page.publishedVersionId));
    if (i !== -1) return found("pages", i, "publishedVersionId", "names no version of the tenant");
  }
  return undefined;
}

/** A value checked whole by `schema`, then its references: the value as given, never zod's copy (a payload keeps every key it had, an own `__proto__` too). */
function checked<T extends StateSnapshot>(schema: z.ZodMiniType, value: unknown, refused: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new MockStateError(refused, toFieldErrors(parsed.error.issues, value));
  const dangling = danglingReference(value as T);
  if (dangling !== undefined) throw new MockStateError(refused, [{ pointer: dangling.pointer, code: "unknown_reference", detail: dangling.detail }]);
  return value as T;
}

/**
 * Validates a format-1 state line whole: every record as the API would have stored it, and every
 * reference (a log's prospect, a page's group, a version's page, a key's tenant) to a record of it.
 * A run of failures saved without its tenant is given one when the replay it starts ends (`replay.ts`).
 * @throws {MockStateError} naming the first failing field
 */
export function parseSavedState(value: unknown): SavedStateLine {
  return checked(SavedStateSchema, value, "invalid state");
}

/**
 * Replaces every tenant's data with a snapshot's (`api.state.restore`): each tenant's data cleared
 * and stored again, as a tenant's reset does (a state file journals it so). The snapshot must
 * hold the store's own tenants, each with as many keys (keys are never in a snapshot: they stay
 * the store's); nothing changes unless the whole snapshot is valid.
 * @param text - a snapshot of a mock created with the same tenants and keys
 * @throws {MockStateError} for text that is not such a snapshot
 */
export function restoreStore(store: Store, text: string): void {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new MockStateError("refused to restore the state: the snapshot is not JSON");
  }
  const snapshot = checked<StateSnapshot>(StateSnapshotSchema, raw, "refused to restore the state");
  const keyCounts = keyCountsOf(store);
  const own = [...store.tenants.keys()].map((id) => `${id}:${keyCounts.get(id) ?? 0}`);
  const saved = snapshot.tenants.map(({ tenant, apiKeyCount }) => `${tenant.id}:${apiKeyCount}`);
  if (own.join("\n") !== saved.join("\n") || snapshot.defaultTenantId !== store.defaultTenantId) {
    throw new MockStateError("refused to restore the state: the snapshot holds other tenants or API keys than this mock");
  }
  const rebuilt = snapshot.tenants.map((part) => rebuild(store, part, () => undefined));
  for (const tenant of rebuilt) replaceTenantData(store, tenant.record.id, tenant);
}

/** The greatest of some IDs by their ULID part (the part after the prefix), or null. */
function latest(ids: Iterable<string>): string | null {
  let best: string | null = null;
  let bestPart = "";
  for (const id of ids) {
    const part = id.slice(id.indexOf("_") + 1);
    if (part > bestPart) {
      best = id;
      bestPart = part;
    }
  }
  return best;
}

function* storedIds(state: SavedState): Generator<string> {
  for (const [key] of state.apiKeys) yield key;
  for (const part of state.tenants) {
    yield part.tenant.id;
    for (const name of TENANT_COLLECTIONS) if (name !== "idempotency") for (const record of part[name] as readonly { id: string }[]) yield record.id;
  }
}

/**
 * Replaces a store's whole contents with a validated saved state (tenants, keys, records), and
 * moves its ID factories and secret stream past what the state holds, so nothing is made twice.
 * Every record stored reaches the store's journal: load before anyone listens. The webhook part
 * is the dispatcher's to restore.
 * @throws {MockStateError} for a collection that holds one record twice (the store is then half loaded: drop it)
 */
export function loadStore(store: Store, state: SavedState): void {
  store.resume({
    resourceId: latest(storedIds(state)),
    eventId: latest(state.webhooks.events.map(({ event }) => event.id)),
    secretsIssued: state.secretsIssued,
  });
  store.tenants.clear();
  store.apiKeys.clear();
  for (const [t, part] of state.tenants.entries()) {
    const tenant = rebuild(store, part);
    store.tenants.set(part.tenant.id, tenant);
    // A record stored twice (only a file edited by hand can hold one) is caught here, where it costs nothing.
    const sizes: [TenantCollection, number][] = [
      ["prospects", tenant.prospects.size],
      ["prospectLogs", tenant.logs.size],
      ["idempotency", tenant.idempotency.size],
      ["pageGroups", tenant.pageGroups.size],
      ["pages", tenant.pages.size],
      ["pageVersions", tenant.pageVersions.size],
      ["webhookSubscriptions", tenant.subscriptions.size],
    ];
    const twice = sizes.find(([name, size]) => size !== part[name].length);
    if (twice !== undefined) {
      throw new MockStateError("invalid state", [{ pointer: `/tenants/${t}/${twice[0]}`, code: "duplicate", detail: "holds a record twice" }]);
    }
  }
  for (const [key, tenantId] of state.apiKeys) store.apiKeys.set(key, tenantId);
  store.defaultTenantId = state.defaultTenantId;
}
