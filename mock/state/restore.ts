/**
 * Puts a state snapshot (`api.state.snapshot()`, see snapshot.ts) back into a store: every
 * tenant's records, stored and indexed by the same helpers the writes use. The snapshot must
 * hold the store's own tenants (keys are never in a snapshot, so they stay the store's); nothing
 * changes unless the whole snapshot is valid. Not public: `persistState` reaches it through the core.
 * @module
 */
import * as z from "zod/mini";
import { DateTime, OpaqueId, ProspectLog, toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError } from "../errors.js";
import { gainIdentifiers, insertProspect } from "./prospects.js";
import {
  PageGroupRecordSchema,
  PageRecordSchema,
  PageVersionRecordSchema,
  ProspectLogRecordSchema,
  ProspectRecordSchema,
  SubscriptionRecordSchema,
} from "./records.js";
import { keyCountsOf } from "./snapshot.js";
import type { Store } from "./store.js";
import { createTenantData, storeLog, storePage, storeVersion, type TenantData } from "./tenant-data.js";

/** What snapshot.ts writes: per tenant, its record, how many keys it has, and its records in insertion order. */
const StateSnapshot = z.object({
  defaultTenantId: z.nullable(OpaqueId),
  tenants: z.array(
    z.object({
      tenant: z.object({ id: OpaqueId, createdAt: DateTime }),
      apiKeyCount: z.int().check(z.gte(0)),
      prospects: z.array(ProspectRecordSchema),
      prospectLogs: z.array(ProspectLogRecordSchema),
      idempotency: z.array(z.object({ key: z.string(), fingerprint: z.string(), result: z.nullable(ProspectLog), storedAtMs: z.number() })),
      pageGroups: z.array(PageGroupRecordSchema),
      pages: z.array(PageRecordSchema),
      pageVersions: z.array(PageVersionRecordSchema),
      webhookSubscriptions: z.array(SubscriptionRecordSchema),
    }),
  ),
});
type StateSnapshot = z.output<typeof StateSnapshot>;
type SavedTenant = StateSnapshot["tenants"][number];

/** A tenant's data rebuilt from its part of a snapshot. */
function rebuild(store: Store, saved: SavedTenant): TenantData {
  const tenant = createTenantData(saved.tenant, store.registerId);
  for (const { id, createdAt, email, phoneNumber, linkedinProfileUrl, name } of saved.prospects) {
    const identifiers = { email: email ?? undefined, phoneNumber: phoneNumber ?? undefined, linkedinProfileUrl: linkedinProfileUrl ?? undefined };
    gainIdentifiers(tenant, insertProspect(tenant, id, createdAt), { ...identifiers, name: name ?? undefined });
  }
  for (const log of saved.prospectLogs) storeLog(tenant, log);
  for (const { key, ...entry } of saved.idempotency) tenant.idempotency.set(key, entry);
  for (const group of saved.pageGroups) tenant.pageGroups.set(group.id, group);
  for (const page of saved.pages) storePage(tenant, page);
  for (const version of saved.pageVersions) storeVersion(tenant, version);
  for (const subscription of saved.webhookSubscriptions) tenant.subscriptions.set(subscription.id, subscription);
  return tenant;
}

/**
 * Replaces every tenant's data with the snapshot's.
 * @param store - the mock's current store
 * @param text - a snapshot of a mock created with the same tenants and keys
 * @throws {MockStateError} for text that is not such a snapshot (nothing is changed then)
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
