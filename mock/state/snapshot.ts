/**
 * A canonical text of the whole state, for byte-for-byte comparison: a rejected request must
 * leave it unchanged. API keys appear only as a count per tenant, never as themselves.
 * @module
 */
import { canonicalJson } from "../canonical-json.js";
import type { Store } from "./store.js";

/** How many API keys each tenant has (a snapshot's only trace of the keys). */
export function keyCountsOf(store: Store): Map<string, number> {
  const counts = new Map<string, number>();
  for (const tenantId of store.apiKeys.values()) counts.set(tenantId, (counts.get(tenantId) ?? 0) + 1);
  return counts;
}

/**
 * Serializes every tenant's data (records in insertion order, idempotency entries included).
 * @returns canonical JSON; equal states give equal strings
 */
export function snapshotStore(store: Store): string {
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
  return canonicalJson({ defaultTenantId: store.defaultTenantId, tenants });
}
