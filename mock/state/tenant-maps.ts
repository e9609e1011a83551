/**
 * The store's two maps over tenants, each keeping an index in step with its own writes, so no
 * request ever scans every tenant or every key: the tenants (and how many of them are isolated,
 * made for one test) and the API keys (and the keys of each tenant).
 * @module
 */
import { IdRegisteredMap } from "./id-registry.js";
import type { TenantData } from "./tenant-data.js";

/** The store's tenants by ID, counting the isolated ones (`api.isolate()`, `POST /__mock/tenants`) as they are stored and removed. */
export class TenantMap extends IdRegisteredMap<TenantData> {
  #isolated = 0;

  /** How many isolated tenants are stored (what `maxTenants` bounds). */
  get isolatedCount(): number {
    return this.#isolated;
  }

  /** Stores a tenant (a tenant stored again, after its reset, is counted once). */
  override set(id: string, tenant: TenantData): this {
    const before = super.get(id);
    if (before?.record.isolated === true) this.#isolated -= 1;
    if (tenant.record.isolated === true) this.#isolated += 1;
    return super.set(id, tenant);
  }

  /** Removes a tenant. @returns whether there was one */
  override delete(id: string): boolean {
    const before = super.get(id);
    const had = super.delete(id);
    if (had && before?.record.isolated === true) this.#isolated -= 1;
    return had;
  }

  /** Forgets every tenant (a state loaded in place), reporting nothing. */
  override clear(): void {
    super.clear();
    this.#isolated = 0;
  }
}

/** The store's API keys (key → tenant ID), with the keys of each tenant kept beside them. */
export class ApiKeyMap extends IdRegisteredMap<string> {
  readonly #byTenant = new Map<string, Set<string>>();

  /** The keys of one tenant (a live view: copy it before changing the map). */
  keysOf(tenantId: string): ReadonlySet<string> {
    return this.#byTenant.get(tenantId) ?? new Set();
  }

  /** Gives `key` to a tenant. */
  override set(key: string, tenantId: string): this {
    this.#unindex(key);
    const keys = this.#byTenant.get(tenantId);
    if (keys === undefined) this.#byTenant.set(tenantId, new Set([key]));
    else keys.add(key);
    return super.set(key, tenantId);
  }

  /** Revokes `key`. @returns whether it existed */
  override delete(key: string): boolean {
    this.#unindex(key);
    return super.delete(key);
  }

  /** Forgets every key (a state loaded in place), reporting nothing. */
  override clear(): void {
    super.clear();
    this.#byTenant.clear();
  }

  #unindex(key: string): void {
    const tenantId = super.get(key);
    if (tenantId === undefined) return;
    const keys = this.#byTenant.get(tenantId);
    keys?.delete(key);
    if (keys?.size === 0) this.#byTenant.delete(tenantId);
  }
}
