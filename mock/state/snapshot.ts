/**
 * The whole state as canonical text (`api.state.snapshot()`), for byte-for-byte comparison (a
 * rejected request must leave it unchanged), and the way back: `persistState` restores one
 * through the core. API keys appear only as a count per tenant, never as themselves.
 * @module
 */
import * as z from "zod/mini";
import { DEFAULT_PROSPECT_LOG_TYPE, OpaqueId, toFieldErrors } from "../../src/schemas/index.js";
import { canonicalJson } from "../lib/canonical-json.js";
import { MockStateError } from "../lib/errors.js";
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

/** One tenant in a snapshot: its record, how many keys it has, and its records in insertion order. */
export const TenantSnapshotSchema = z.object({
  tenant: TenantRecordSchema,
  apiKeyCount: z.int().check(z.gte(0)),
  prospects: z.array(ProspectRecordSchema),
  prospectLogs: z.array(ProspectLogRecordSchema),
  idempotency: z.array(IdempotencyRecordSchema),
  pageGroups: z.array(PageGroupRecordSchema),
  pages: z.array(PageRecordSchema),
  pageVersions: z.array(PageVersionRecordSchema),
  webhookSubscriptions: z.array(SubscriptionRecordSchema),
});
/** One tenant in a snapshot (what {@link TenantSnapshotSchema} accepts). */
export type TenantSnapshot = Omit<z.output<typeof TenantSnapshotSchema>, "idempotency"> & {
  readonly idempotency: readonly ({ readonly key: string } & IdempotencyEntry)[];
};

/** A snapshot: the default tenant and every tenant's part. */
const StateSnapshot = z.object({ defaultTenantId: z.nullable(OpaqueId), tenants: z.array(TenantSnapshotSchema) });
type StateSnapshot = { readonly defaultTenantId: string | null; readonly tenants: readonly TenantSnapshot[] };

/** How many API keys each tenant has (a snapshot's only trace of the keys). */
function keyCountsOf(store: Store): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tenantId of store.apiKeys.values()) counts.set(tenantId, (counts.get(tenantId) ?? 0) + 1);
  return counts;
}

/** Every tenant's part of a snapshot (records in insertion order, idempotency entries included): live records, not copies. */
export function snapshotTenants(store: Store): TenantSnapshot[] {
  const keyCounts = keyCountsOf(store);
  return [...store.tenants.values()].map((tenant) => ({
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
}

/**
 * Serializes every tenant's data (records in insertion order, idempotency entries included).
 * @returns canonical JSON; equal states give equal strings
 */
export function snapshotStore(store: Store): string {
  return canonicalJson({ defaultTenantId: store.defaultTenantId, tenants: snapshotTenants(store) });
}

/** A tenant's data rebuilt from its part of a snapshot, stored and indexed by the same helpers the writes use. */
export function rebuild(store: Store, saved: TenantSnapshot): TenantData {
  const tenant = createTenantData(saved.tenant, store.registerId, store.journal);
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

/**
 * Replaces every tenant's data with the snapshot's. The snapshot must hold the store's own
 * tenants (keys are never in a snapshot, so they stay the store's); nothing changes unless the
 * whole snapshot is valid.
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
  const parsed = StateSnapshot.safeParse(raw);
  if (!parsed.success) throw new MockStateError("refused to restore the state", toFieldErrors(parsed.error.issues, raw));
  // The records as parsed by JSON.parse, not zod's copies: a payload keeps every key it had (an own `__proto__` too).
  const snapshot = raw as StateSnapshot;
  const keyCounts = keyCountsOf(store);
  const own = [...store.tenants.keys()].map((id) => `${id}:${keyCounts.get(id) ?? 0}`);
  const saved = snapshot.tenants.map(({ tenant, apiKeyCount }) => `${tenant.id}:${apiKeyCount}`);
  if (own.join("\n") !== saved.join("\n") || snapshot.defaultTenantId !== store.defaultTenantId) {
    throw new MockStateError("refused to restore the state: the snapshot holds other tenants or API keys than this mock");
  }
  const tenants = snapshot.tenants.map((tenant) => rebuild(store, tenant));
  for (const tenant of tenants) store.tenants.set(tenant.record.id, tenant);
}
