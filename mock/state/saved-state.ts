/**
 * The whole state as a state file keeps it (`--state`): a snapshot's tenants (`snapshot.ts`) plus
 * what a restart needs and a snapshot leaves out: the API keys themselves, how many secrets were
 * drawn, and the webhook events and deliveries. And the way back: a journal of changes replayed
 * onto a saved state, the result validated whole (records, references) before it replaces a
 * store's contents. Nothing is loaded unless all of it is valid.
 * @module
 */
import * as z from "zod/mini";
import { OpaqueId, toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import {
  applyWebhookChange,
  endWebhookReplay,
  type SavedWebhooks,
  SavedWebhooksSchema,
  startWebhookReplay,
  type WebhookChange,
  type WebhookReplay,
} from "../webhooks/index.js";
import type { TenantCollection } from "./journal.js";
import { type TenantRecord, TenantRecordSchema } from "./records.js";
import { rebuild, snapshotTenants, type TenantSnapshot, TenantSnapshotSchema } from "./snapshot.js";
import type { Store } from "./store.js";

/** What {@link SavedState} must be. */
export const SavedStateSchema = z.object({
  defaultTenantId: z.nullable(OpaqueId),
  secretsIssued: z.int().check(z.gte(0)),
  apiKeys: z.array(z.tuple([z.string(), OpaqueId])),
  tenants: z.array(TenantSnapshotSchema),
  webhooks: SavedWebhooksSchema,
});

/** The whole state of a mock, API keys and webhook deliveries included (never shown: it holds keys and secrets). */
export interface SavedState {
  readonly defaultTenantId: string | null;
  readonly secretsIssued: number;
  /** Each key and its tenant. */
  readonly apiKeys: readonly (readonly [key: string, tenantId: string])[];
  readonly tenants: readonly TenantSnapshot[];
  readonly webhooks: SavedWebhooks;
}

/** The collections of a tenant, in the order a snapshot lists them (and a rebuild stores them). */
const COLLECTIONS: readonly TenantCollection[] = [
  "prospects",
  "prospectLogs",
  "idempotency",
  "pageGroups",
  "pages",
  "pageVersions",
  "webhookSubscriptions",
];

const Collection = z.enum(COLLECTIONS as [TenantCollection, ...TenantCollection[]]);

const WebhookChangeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("event"), tenantId: z.nullable(z.string()), event: z.looseObject({}) }),
  z.object({ kind: z.literal("delivery"), delivery: z.looseObject({ sequence: z.int() }) }),
  z.object({ kind: z.literal("forget-delivery"), sequence: z.int() }),
  z.object({ kind: z.literal("forget-events"), tenantId: z.nullable(z.string()), count: z.int().check(z.gte(0)) }),
  z.object({ kind: z.literal("failing"), tenantId: z.nullable(z.string()), subscriptionId: z.string(), since: z.nullable(z.number()) }),
  z.object({ kind: z.literal("forget-tenant"), tenantId: z.string() }),
]);

/** What one journal entry must look like (its records are checked with the whole state after the replay). */
export const StateChangeSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("put"), in: Collection, tenantId: z.string(), value: z.looseObject({}) }),
  z.object({ op: z.literal("delete"), in: Collection, tenantId: z.string(), id: z.string() }),
  z.object({ op: z.literal("tenant"), value: z.extend(TenantRecordSchema, { id: z.string(), createdAt: z.string() }) }),
  z.object({ op: z.literal("key"), key: z.string(), tenantId: z.nullable(z.string()) }),
  z.object({ op: z.literal("secrets"), issued: z.int().check(z.gte(0)) }),
  z.object({ op: z.literal("webhooks"), change: WebhookChangeSchema }),
  z.object({ op: z.literal("clear"), tenantId: z.string() }),
  z.object({ op: z.literal("delete-tenant"), tenantId: z.string() }),
  z.object({ op: z.literal("reset") }),
]);

/**
 * The whole state of a store and its webhook deliveries, as live records (serialize it at once).
 * @param webhooks - the dispatcher's saved state
 */
export function saveStore(store: Store, webhooks: SavedWebhooks): SavedState {
  return {
    defaultTenantId: store.defaultTenantId,
    secretsIssued: store.secretsIssued,
    apiKeys: [...store.apiKeys],
    tenants: snapshotTenants(store),
    webhooks,
  };
}

/** A saved state being replayed: every collection keyed, so each change is a lookup. */
export interface Replay {
  defaultTenantId: string | null;
  secretsIssued: number;
  readonly apiKeys: Map<string, string>;
  readonly tenants: Map<string, { readonly tenant: TenantRecord; readonly records: Record<TenantCollection, Map<string, object>> }>;
  readonly webhooks: WebhookReplay;
}

function emptyTenant(tenant: TenantRecord) {
  return {
    tenant,
    records: Object.fromEntries(COLLECTIONS.map((name) => [name, new Map<string, object>()])) as Record<TenantCollection, Map<string, object>>,
  };
}

/** The key a record is stored under in its collection. */
const keyOf = (collection: TenantCollection, value: Record<string, unknown>): unknown => (collection === "idempotency" ? value["key"] : value["id"]);

/** Starts a replay from a saved state (the records are shared, not copied). */
export function startReplay(saved: SavedState): Replay {
  const tenants: Replay["tenants"] = new Map();
  for (const part of saved.tenants) {
    const tenant = emptyTenant(part.tenant);
    for (const name of COLLECTIONS) {
      const list = part[name] as readonly Record<string, unknown>[];
      for (const value of list) tenant.records[name].set(keyOf(name, value) as string, value);
    }
    tenants.set(part.tenant.id, tenant);
  }
  return {
    defaultTenantId: saved.defaultTenantId,
    secretsIssued: saved.secretsIssued,
    apiKeys: new Map(saved.apiKeys),
    tenants,
    webhooks: startWebhookReplay(saved.webhooks),
  };
}

/**
 * Applies one journal entry to a replay, in the order the changes happened (so every collection
 * keeps the order the live one had).
 * @param change - an entry that {@link StateChangeSchema} accepted
 * @throws {MockStateError} for a change to a tenant the replay does not have, or a record without its ID
 */
export function applyChange(replay: Replay, change: z.output<typeof StateChangeSchema>): void {
  switch (change.op) {
    case "put":
    case "delete": {
      const tenant = replay.tenants.get(change.tenantId);
      if (tenant === undefined) throw new MockStateError(`a change to tenant ${JSON.stringify(change.tenantId)}, which does not exist`);
      const records = tenant.records[change.in];
      if (change.op === "delete") records.delete(change.id);
      else {
        const key = keyOf(change.in, change.value);
        if (typeof key !== "string") throw new MockStateError(`a record of ${change.in} without its ${change.in === "idempotency" ? "key" : "id"}`);
        records.set(key, change.value);
      }
      break;
    }
    case "tenant":
      if (!replay.tenants.has(change.value.id)) replay.tenants.set(change.value.id, emptyTenant(change.value));
      replay.defaultTenantId ??= change.value.id;
      break;
    case "key":
      if (change.tenantId === null) replay.apiKeys.delete(change.key);
      else replay.apiKeys.set(change.key, change.tenantId);
      break;
    case "secrets":
      replay.secretsIssued = Math.max(replay.secretsIssued, change.issued);
      break;
    case "webhooks":
      applyWebhookChange(replay.webhooks, change.change as WebhookChange);
      break;
    case "clear": {
      const tenant = replay.tenants.get(change.tenantId);
      if (tenant === undefined) throw new MockStateError(`a change to tenant ${JSON.stringify(change.tenantId)}, which does not exist`);
      for (const name of COLLECTIONS) tenant.records[name].clear();
      break;
    }
    case "delete-tenant": {
      replay.tenants.delete(change.tenantId);
      for (const [key, tenantId] of replay.apiKeys) if (tenantId === change.tenantId) replay.apiKeys.delete(key);
      applyWebhookChange(replay.webhooks, { kind: "forget-tenant", tenantId: change.tenantId });
      if (replay.defaultTenantId === change.tenantId) replay.defaultTenantId = replay.tenants.keys().next().value ?? null;
      break;
    }
    case "reset":
      replay.defaultTenantId = null;
      replay.apiKeys.clear();
      replay.tenants.clear();
      replay.webhooks.events.length = 0;
      replay.webhooks.deliveries.clear();
      replay.webhooks.failingSince.clear();
      break;
  }
}

/** The saved state a replay ends with (not yet validated: see {@link parseSavedState}). */
export function endReplay(replay: Replay): unknown {
  const keyCounts = new Map<string, number>();
  for (const tenantId of replay.apiKeys.values()) keyCounts.set(tenantId, (keyCounts.get(tenantId) ?? 0) + 1);
  return {
    defaultTenantId: replay.defaultTenantId,
    secretsIssued: replay.secretsIssued,
    apiKeys: [...replay.apiKeys],
    tenants: [...replay.tenants.values()].map(({ tenant, records }) => ({
      tenant,
      apiKeyCount: keyCounts.get(tenant.id) ?? 0,
      ...Object.fromEntries(COLLECTIONS.map((name) => [name, [...records[name].values()]])),
      // An entry still in flight when the state was written has no answer to replay: forgotten, as after a reset.
      idempotency: [...records.idempotency.values()].filter((entry) => (entry as { result: unknown }).result !== null),
    })),
    webhooks: endWebhookReplay(replay.webhooks),
  };
}

/** The first reference of a saved state that points nowhere, as a field error, or undefined. */
function danglingReference(state: SavedState): { pointer: string; code: string; detail: string } | undefined {
  const tenantIds = new Set(state.tenants.map(({ tenant }) => tenant.id));
  const missing = (pointer: string, detail: string) => ({ pointer, code: "unknown_reference", detail });
  if (state.defaultTenantId !== (state.tenants[0]?.tenant.id ?? null)) return missing("/defaultTenantId", "is not the first tenant");
  for (const [index, [, tenantId]] of state.apiKeys.entries()) {
    if (!tenantIds.has(tenantId)) return missing(`/apiKeys/${index}/1`, "names no tenant of the state");
  }
  for (const [t, part] of state.tenants.entries()) {
    const id = part.tenant.id;
    const ids = (list: readonly { id: string }[]) => new Set(list.map((record) => record.id));
    const prospects = ids(part.prospects);
    const groups = ids(part.pageGroups);
    const pages = ids(part.pages);
    const versions = ids(part.pageVersions);
    for (const name of COLLECTIONS) {
      if (name === "idempotency") continue;
      const list = part[name] as readonly { tenantId: string }[];
      const i = list.findIndex((record) => record.tenantId !== id);
      if (i !== -1) return missing(`/tenants/${t}/${name}/${i}/tenantId`, "is not the tenant it is stored under");
    }
    const checks: [string, readonly Record<string, unknown>[], string, ReadonlySet<string>][] = [
      ["prospectLogs", part.prospectLogs, "prospectId", prospects],
      ["pages", part.pages, "pageGroupId", groups],
      ["pageVersions", part.pageVersions, "pageId", pages],
    ];
    for (const [name, list, field, known] of checks) {
      const i = list.findIndex((record) => !known.has(record[field] as string));
      if (i !== -1) return missing(`/tenants/${t}/${name}/${i}/${field}`, "names no record of the tenant");
    }
    const i = part.pages.findIndex((page) => page.publishedVersionId !== null && !versions.has(page.publishedVersionId));
    if (i !== -1) return missing(`/tenants/${t}/pages/${i}/publishedVersionId`, "names no version of the tenant");
  }
  return undefined;
}

/**
 * Validates a saved state whole: every record as the API would have stored it, and every
 * reference (a log's prospect, a page's group, a version's page, a key's tenant) to a record of it.
 * @throws {MockStateError} naming the first failing field
 */
export function parseSavedState(value: unknown): SavedState {
  const parsed = SavedStateSchema.safeParse(value);
  if (!parsed.success) throw new MockStateError("invalid state", toFieldErrors(parsed.error.issues, value));
  // The records as given, not zod's copies: a payload keeps every key it had (an own `__proto__` too).
  const state = value as SavedState;
  const dangling = danglingReference(state);
  if (dangling !== undefined) throw new MockStateError("invalid state", [dangling]);
  return state;
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
    for (const name of COLLECTIONS) if (name !== "idempotency") for (const record of part[name] as readonly { id: string }[]) yield record.id;
  }
}

/**
 * Replaces a store's whole contents with a validated saved state (tenants, keys, records), and
 * moves its ID factories and secret stream past what the state holds, so nothing is made twice.
 * Every record stored reaches the store's journal: load before anyone listens. The webhook part
 * is the dispatcher's to restore.
 */
export function loadStore(store: Store, state: SavedState): void {
  store.resume({
    resourceId: latest(storedIds(state)),
    eventId: latest(state.webhooks.events.map(({ event }) => event.id)),
    secretsIssued: state.secretsIssued,
  });
  store.tenants.clear();
  store.apiKeys.clear();
  for (const part of state.tenants) store.tenants.set(part.tenant.id, rebuild(store, part));
  for (const [key, tenantId] of state.apiKeys) store.apiKeys.set(key, tenantId);
  store.defaultTenantId = state.defaultTenantId;
}
