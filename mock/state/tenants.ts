/**
 * `state.tenants` and `state.apiKeys`: who can call the API, and whose data each key reaches.
 * Keys are kept only in a private map: no helper, snapshot or message ever shows one.
 * @module
 */
import { MockStateError } from "../errors.js";
import { ApiKeyInput, TenantInput } from "./inputs.js";
import type { TenantRecord } from "./records.js";
import { addTenant, type Store, tenantFor } from "./store.js";
import { assertFreeId, parseOrThrow } from "./validate.js";

/** Tenants: each owns its data; a key of one tenant never reaches another's. */
export interface TenantsApi {
  /**
   * Creates a tenant, optionally with API keys.
   * @param input - `id` (default `tenant_` + ULID) and `apiKeys`
   * @returns the tenant
   * @throws {MockStateError} for an invalid or taken ID or key
   */
  create(input?: TenantInput): TenantRecord;
  /** The tenant with this ID, or undefined. */
  get(id: string): TenantRecord | undefined;
  /** Every tenant, oldest first. */
  list(): TenantRecord[];
}

/** API keys: issue and revoke. A revoked key answers 401 `invalid_api_key`. */
export interface ApiKeysApi {
  /**
   * Gives a tenant a new key.
   * @param input - `tenantId` (default tenant) and `key` (default `key_` + ULID)
   * @returns the key
   * @throws {MockStateError} for an invalid or taken key or an unknown tenant
   */
  issue(input?: ApiKeyInput): string;
  /**
   * Revokes a key.
   * @returns whether the key existed
   */
  revoke(key: string): boolean;
}

function addKey(store: Store, key: string, tenantId: string): void {
  if (store.apiKeys.has(key)) {
    throw new MockStateError("refused to store an API key", [{ pointer: "/key", code: "duplicate", detail: "the key is already issued" }]);
  }
  store.apiKeys.set(key, tenantId);
}

/**
 * Creates a tenant with keys, validated first so nothing is stored when any part is invalid.
 * @throws {MockStateError} for an invalid or taken ID or key
 */
export function createTenant(store: Store, input: unknown): TenantRecord {
  const { id = store.newId("tenant"), apiKeys = [] } = parseOrThrow(TenantInput, input, "a tenant");
  assertFreeId(store.tenants, id, "a tenant");
  const keys = new Set(apiKeys);
  if (keys.size !== apiKeys.length || apiKeys.some((key) => store.apiKeys.has(key))) {
    throw new MockStateError("refused to store a tenant", [{ pointer: "/apiKeys", code: "duplicate", detail: "a key is listed twice or already issued" }]);
  }
  const tenant = addTenant(store, id);
  for (const key of keys) addKey(store, key, id);
  return { ...tenant.record };
}

/** Builds `state.tenants` over the current store. */
export function tenantsApi(current: () => Store): TenantsApi {
  return {
    create: (input = {}) => createTenant(current(), input),
    get: (id) => {
      const tenant = current().tenants.get(id);
      return tenant && { ...tenant.record };
    },
    list: () => [...current().tenants.values()].map((tenant) => ({ ...tenant.record })),
  };
}

/** Builds `state.apiKeys` over the current store. */
export function apiKeysApi(current: () => Store): ApiKeysApi {
  return {
    issue(input = {}) {
      const store = current();
      const parsed = parseOrThrow(ApiKeyInput, input, "an API key");
      const tenant = tenantFor(store, parsed.tenantId);
      const key = parsed.key ?? store.newId("key");
      addKey(store, key, tenant.record.id);
      return key;
    },
    revoke: (key) => current().apiKeys.delete(key),
  };
}
