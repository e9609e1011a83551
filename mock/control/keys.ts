/**
 * Which tenant an API key acts for, as the control API needs it. The mock keeps its keys private,
 * so the control API reads them from the same `apiKeys` option the mock was created with: a
 * list belongs to the mock's default tenant, a map names each key's tenant.
 * @module
 */
import type { MockApi, MockApiOptions } from "../core.js";
import { DEFAULT_API_KEY } from "../core.js";

/** Finds the tenant of an API key; null for a missing or unknown key. */
export type TenantOfKey = ((key: string | null) => string | null) & {
  /** Whether the keys belong to more than one tenant. */
  readonly multiTenant: boolean;
};

/**
 * Builds the key directory of a mock.
 * @param api - the mock (its default tenant is read at call time: a reset may renew it)
 * @param apiKeys - the `apiKeys` option the mock was created with (default: the development key)
 * @returns the lookup
 */
export function createKeyDirectory(api: Pick<MockApi, "state">, apiKeys: MockApiOptions["apiKeys"] = [DEFAULT_API_KEY]): TenantOfKey {
  if (Array.isArray(apiKeys)) {
    const keys = new Set<string>(apiKeys);
    const lookup = (key: string | null) => (key !== null && keys.has(key) ? api.state.defaultTenantId : null);
    return Object.assign(lookup, { multiTenant: false });
  }
  const tenants = new Map(Object.entries(apiKeys as Readonly<Record<string, string>>));
  const lookup = (key: string | null) => (key === null ? null : (tenants.get(key) ?? null));
  return Object.assign(lookup, { multiTenant: new Set(tenants.values()).size > 1 });
}
