/**
 * Authentication: the `x-api-key` header only (never the query string or the body), checked
 * before anything else. A key belongs to one tenant, and that tenant scopes every lookup.
 * @module
 */
import { API_KEY_HEADER } from "../../src/headers.js";
import type { Store } from "../state/store.js";
import type { TenantData } from "../state/tenant-data.js";

/** The caller's tenant, or why there is none. */
export type AuthResult =
  | { readonly ok: true; readonly tenant: TenantData }
  | { readonly ok: false; readonly code: "missing_api_key" | "invalid_api_key"; readonly detail: string };

/**
 * Finds the tenant of the request's API key. Messages never repeat the key.
 * @param store - the current state
 * @param headers - the request headers (a fetch `Headers` or the light request's lookup)
 */
export function authenticate(store: Store, headers: Pick<Headers, "get">): AuthResult {
  const key = headers.get(API_KEY_HEADER);
  if (key === null || key === "") {
    return { ok: false, code: "missing_api_key", detail: "Send your API key in the x-api-key header." };
  }
  const tenantId = store.apiKeys.get(key);
  const tenant = tenantId === undefined ? undefined : store.tenants.get(tenantId);
  if (tenant === undefined) {
    return { ok: false, code: "invalid_api_key", detail: "The API key in the x-api-key header is unknown or revoked." };
  }
  return { ok: true, tenant };
}
