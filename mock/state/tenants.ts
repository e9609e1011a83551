/**
 * Tenants and their API keys in the store: who can call the API, and whose data each key reaches.
 * Keys are kept only in a private map: no helper, snapshot or message ever shows one.
 * `tenants-api.ts` builds `state.tenants` and `state.apiKeys` on these.
 * @module
 */
import { MockStateError } from "../lib/errors.js";
import { TenantInput } from "./inputs.js";
import type { TenantRecord } from "./records.js";
import { type Store, timestamp } from "./store.js";
import { createTenantData } from "./tenant-data.js";
import { assertFreeId, parseOrThrow } from "./validate.js";

/**
 * Creates a tenant with keys, validated first so nothing is stored when any part is invalid. The
 * first tenant becomes the default one.
 * @throws {MockStateError} for an invalid or taken ID or key
 */
export function createTenant(store: Store, input: unknown): TenantRecord {
  const { id = store.newId("tenant"), apiKeys = [] } = parseOrThrow(TenantInput, input, "a tenant");
  assertFreeId(store.tenants, id, "a tenant");
  const keys = new Set(apiKeys);
  if (keys.size !== apiKeys.length || apiKeys.some((key) => store.apiKeys.has(key))) {
    throw new MockStateError("refused to store a tenant", [
      { pointer: "/apiKeys", code: "duplicate", detail: "a key is listed twice or already issued" },
    ]);
  }
  const tenant = createTenantData({ id, createdAt: timestamp(store) }, store.registerId, store.journal);
  store.tenants.set(id, tenant);
  store.defaultTenantId ??= id;
  for (const key of keys) store.apiKeys.set(key, id);
  return { ...tenant.record };
}
