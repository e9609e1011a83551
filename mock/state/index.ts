/**
 * `api.state`: drive and inspect the mock's data from a test, with the API's own validation.
 * @module
 */
import type { MockStateError } from "../lib/errors.js";
import { type PageGroupsApi, type PagesApi, type PageVersionsApi, pageGroupsApi, pagesApi, pageVersionsApi } from "./pages-api.js";
import { restoreStore } from "./persist/load.js";
import { snapshotStore } from "./persist/saved-state.js";
import { type ProspectLogsApi, type ProspectsApi, prospectLogsApi, prospectsApi } from "./prospects-api.js";
import type { Store } from "./store.js";
import { type ApiKeysApi, apiKeysApi, type TenantsApi, tenantsApi } from "./tenants-api.js";
import { type FormsApi, formsApi, type WebhookSubscriptionsApi, webhookSubscriptionsApi } from "./webhook-subscriptions-api.js";

/**
 * The mock's state, as a test drives and inspects it. Every helper validates its input like the
 * API does (a {@link MockStateError} lists every failing field), so no record the API could not
 * have produced can be seeded. Getters return copies: changing them changes nothing.
 */
export interface MockState {
  /** Tenants; the first one is the default for every helper called without `tenantId`. */
  readonly tenants: TenantsApi;
  /** API keys: issue and revoke. */
  readonly apiKeys: ApiKeysApi;
  /** Prospects: seed, get, list, find by identifier. */
  readonly prospects: ProspectsApi;
  /** Prospect log entries: create (exactly like the API), get, list. */
  readonly prospectLogs: ProspectLogsApi;
  /** Page groups. */
  readonly pageGroups: PageGroupsApi;
  /** Pages. */
  readonly pages: PagesApi;
  /** Page versions: create, process, publish. */
  readonly pageVersions: PageVersionsApi;
  /** Webhook subscriptions. */
  readonly webhookSubscriptions: WebhookSubscriptionsApi;
  /** Form events. */
  readonly forms: FormsApi;
  /** The ID of the default tenant, or null when there is no tenant. */
  readonly defaultTenantId: string | null;
  /** The whole state as canonical JSON (API keys only counted): equal states give equal strings. */
  snapshot(): string;
  /**
   * Puts back a snapshot of this mock (`snapshot()`, taken earlier or by a mock created with the
   * same options): every tenant's records and idempotency keys become the snapshot's. Keys, webhook
   * events and deliveries, the request log and the faults stay as they are.
   * @param snapshot - what `snapshot()` gave
   * @throws {MockStateError} changing nothing, for text that is not a valid snapshot of a mock with the same tenants and keys
   * @example
   * ```ts
   * const seeded = api.state.snapshot();
   * api.state.prospectLogs.create({ source: "crm", payload: {}, email: "ada@example.com" });
   * api.state.restore(seeded); // the log is gone again
   * ```
   */
  restore(snapshot: string): void;
}

/**
 * Builds `api.state` over whatever store is current (a reset swaps the store, not this object).
 * @param current - returns the current store
 */
export function createMockState(current: () => Store): MockState {
  return {
    tenants: tenantsApi(current),
    apiKeys: apiKeysApi(current),
    prospects: prospectsApi(current),
    prospectLogs: prospectLogsApi(current),
    pageGroups: pageGroupsApi(current),
    pages: pagesApi(current),
    pageVersions: pageVersionsApi(current),
    webhookSubscriptions: webhookSubscriptionsApi(current),
    forms: formsApi(current),
    get defaultTenantId() {
      return current().defaultTenantId;
    },
    snapshot: () => snapshotStore(current()),
    restore: (snapshot) => restoreStore(current(), snapshot),
  };
}
