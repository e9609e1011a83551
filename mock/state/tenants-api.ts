/**
 * `state.tenants` and `state.apiKeys`: who can call the API, and whose data each key reaches.
 * Keys are kept only in a private map: no helper, snapshot or message ever shows one.
 * @module
 */
import { MockStateError } from "../lib/errors.js";
import { ApiKeyInput, type TenantInput } from "./inputs.js";
import type { TenantRecord } from "./records.js";
import { type Store, tenantFor } from "./store.js";
import { createTenant } from "./tenants.js";
import { parseOrThrow } from "./validate.js";

/** Tenants: each owns its data; a key of one tenant never reaches another's. */
export interface TenantsApi {
  /** Creates a tenant (`id` default `tenant_` + ULID) with its `apiKeys`. @throws {MockStateError} for an invalid or taken ID or key */
  create(input?: TenantInput): TenantRecord;
  /** The tenant with this ID, or undefined. */
  get(id: string): TenantRecord | undefined;
  /** Every tenant, oldest first. */
  list(): TenantRecord[];
}

/** API keys: issue and revoke. A revoked key answers 401 `invalid_api_key`. */
export interface ApiKeysApi {
  /** Gives a tenant (default: the default tenant) a new `key` (default `key_` + ULID). @throws {MockStateError} for an invalid or taken key or an unknown tenant */
  issue(input?: ApiKeyInput): string;
  /** Revokes a key. @returns whether the key existed */
  revoke(key: string): boolean;
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
      if (store.apiKeys.has(key)) {
        throw new MockStateError("refused to store an API key", [{ pointer: "/key", code: "duplicate", detail: "the key is already issued" }]);
      }
      store.apiKeys.set(key, tenant.record.id);
      return key;
    },
    revoke: (key) => current().apiKeys.delete(key),
  };
}
