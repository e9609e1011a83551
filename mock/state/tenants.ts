/**
 * Tenants and their API keys in the store: who can call the API, and whose data each key reaches.
 * Keys are kept only in a private map: no helper, snapshot or message ever shows one.
 * `tenants-api.ts` builds `state.tenants` and `state.apiKeys` on these.
 * @module
 */
import { MockStateError } from "../lib/errors.js";
import type { Collection } from "./collection.js";
import { COLLECTION_NAMES } from "./collections.js";
import { TenantInput } from "./inputs.js";
import type { TenantRecord } from "./records.js";
import { type Store, timestamp } from "./store.js";
import { createTenantData, type TenantData } from "./tenant-data.js";
import { assertFreeId, parseOrThrow } from "./validate.js";

/**
 * Creates a tenant with keys, validated first so nothing is stored when any part is invalid. The
 * first tenant becomes the default one.
 * @param isolated - a tenant made for one test (`api.isolate()`, `POST /__mock/tenants`): it may be deleted, and counts against `maxTenants`
 * @throws {MockStateError} for an invalid or taken ID or key
 */
export function createTenant(store: Store, input: unknown, isolated = false): TenantRecord {
  const { id = store.newId("tenant"), apiKeys = [] } = parseOrThrow(TenantInput, input, "a tenant");
  assertFreeId(store.tenants, id, "a tenant");
  const keys = new Set(apiKeys);
  if (keys.size !== apiKeys.length || apiKeys.some((key) => store.apiKeys.has(key))) {
    throw new MockStateError("refused to store a tenant", [
      { pointer: "/apiKeys", code: "duplicate", detail: "a key is listed twice or already issued" },
    ]);
  }
  const record: TenantRecord = { id, createdAt: timestamp(store), ...(isolated && { isolated: true }) };
  const tenant = createTenantData(record, store.registerId, store.journal);
  store.tenants.set(id, tenant);
  store.defaultTenantId ??= id;
  for (const key of keys) store.apiKeys.set(key, id);
  return { ...tenant.record };
}

/**
 * A new API key for a tenant made for one test (`api.isolate()`, `POST /__mock/tenants`): `key_`
 * and 32 hex digits from Web Crypto, never from the seed, so no one can work out another tenant's key.
 */
export function newApiKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `key_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A tenant's reset: it gets the data of `start` (the same tenant in a freshly built start state;
 * none: empty), keeping its record and its API keys. The other tenants are not touched.
 * @param store - the current state
 * @param tenantId - the tenant to reset (unknown: nothing happens)
 * @param start - the tenant's data in a start state built apart (fixtures run there), or undefined
 */
export function replaceTenantData(store: Store, tenantId: string, start: TenantData | undefined): void {
  const tenant = store.tenants.get(tenantId);
  if (tenant === undefined) return;
  store.journal({ op: "clear", tenantId });
  const fresh = createTenantData(tenant.record, store.registerId, store.journal);
  if (start !== undefined) {
    // Stored through the fresh collections: the IDs are registered in this store, the lookups and groups rebuilt.
    for (const name of COLLECTION_NAMES) for (const [key, value] of start[name]) (fresh[name] as Collection<object>).set(key, value);
  }
  store.tenants.set(tenantId, fresh);
}

/**
 * Removes an isolated tenant and revokes its keys (each revocation journaled, then the removal),
 * leaving every other tenant as it was. The default tenant moves to the oldest one left. What the
 * mock keeps beside the store (faults, requests, deliveries, inbox messages) is the caller's to forget.
 * @throws {MockStateError} for an unknown tenant, or one that `isolate()` did not make
 */
export function removeTenant(store: Store, tenantId: string): void {
  const tenant = store.tenants.get(tenantId);
  if (tenant === undefined) throw new MockStateError(`no tenant ${JSON.stringify(tenantId)}`);
  if (tenant.record.isolated !== true) {
    throw new MockStateError(
      `tenant ${JSON.stringify(tenantId)} was not made by isolate() or POST /__mock/tenants: only such a tenant can be deleted (reset this one instead)`,
    );
  }
  for (const key of [...store.apiKeys.keysOf(tenantId)]) store.apiKeys.delete(key);
  store.tenants.delete(tenantId);
  if (store.defaultTenantId === tenantId) store.defaultTenantId = store.tenants.keys().next().value ?? null;
}
