/**
 * The one saved-state form: a mock's state as its records, each collection a list of the records
 * its row of the collections table describes. With its keys (a {@link SavedState}: what a state
 * file keeps, `--state`), it is the whole state: every tenant, the API keys themselves, how many
 * secrets were drawn, the webhook events and deliveries. Without (a {@link StateSnapshot}:
 * `api.state.snapshot()`, and what `persistState` keeps), it is every tenant's data, its keys only
 * counted, as canonical text for byte-for-byte comparison. A state file writes the same records
 * one per line (`records.ts`) and replays them (`replay.ts`).
 * @module
 */
import * as z from "zod/mini";
import { OpaqueId } from "../../../src/schemas/index.js";
import { canonicalJson } from "../../lib/canonical-json.js";
import type { SavedWebhooks } from "../../webhooks/index.js";
import { COLLECTION_NAMES, COLLECTIONS, type CollectionName, perCollection, type RecordOf } from "../collections.js";
import { type TenantRecord, TenantRecordSchema } from "../records.js";
import type { Store } from "../store.js";

/** One tenant: its record, how many keys it has, and its records of each collection in insertion order. */
export const TenantSnapshotSchema = z.object({
  tenant: TenantRecordSchema,
  apiKeyCount: z.int().check(z.gte(0)),
  ...perCollection((name) => z.array(COLLECTIONS[name].schema)),
});

/** One tenant (what {@link TenantSnapshotSchema} accepts). */
export type TenantSnapshot = { readonly tenant: TenantRecord; readonly apiKeyCount: number } & {
  readonly [C in CollectionName]: readonly RecordOf<C>[];
};

/** A state without its keys: the default tenant and every tenant's part. */
export const StateSnapshotSchema = z.object({ defaultTenantId: z.nullable(OpaqueId), tenants: z.array(TenantSnapshotSchema) });

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

/** How many API keys each tenant has (a snapshot's only trace of the keys). */
export function keyCountsOf(apiKeys: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tenantId of apiKeys) counts.set(tenantId, (counts.get(tenantId) ?? 0) + 1);
  return counts;
}

/**
 * The state of a store, as live records (serialize it before the next write): without
 * `webhooks`, a snapshot (its keys only counted); with the dispatcher's saved webhooks, the whole state.
 */
export function saveStore(store: Store): StateSnapshot;
export function saveStore(store: Store, webhooks: SavedWebhooks): SavedState;
export function saveStore(store: Store, webhooks?: SavedWebhooks): StateSnapshot | SavedState {
  const keyCounts = keyCountsOf(store.apiKeys.values());
  const tenants = [...store.tenants.values()].map((tenant) => {
    const part: Record<string, unknown> = { tenant: tenant.record, apiKeyCount: keyCounts.get(tenant.record.id) ?? 0 };
    for (const name of COLLECTION_NAMES) part[name] = [...tenant[name].values()];
    return part as TenantSnapshot;
  });
  const snapshot = { defaultTenantId: store.defaultTenantId, tenants };
  if (webhooks === undefined) return snapshot;
  return { ...snapshot, secretsIssued: store.secretsIssued, apiKeys: [...store.apiKeys], webhooks };
}

/** A store's snapshot as canonical JSON (`api.state.snapshot()`): equal states give equal strings. */
export function snapshotStore(store: Store): string {
  return canonicalJson(saveStore(store));
}
