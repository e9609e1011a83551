/**
 * Which tenant made each logged request. The mock's request log is global; the control API shows
 * a tenant only its own requests, so the owner of every authenticated request is noted by its
 * request ID as it is answered.
 * @module
 */
import type { LoggedRequest, MockApi, MockOutcome } from "../core.js";
import { API_KEY_HEADER } from "../http/auth.js";
import type { TenantOfKey } from "./keys.js";

/** The owners of logged requests. */
export interface RequestOwners {
  /** Notes the tenant of an answered request (nothing for an unauthenticated or dropped one). */
  track(request: Request, outcome: MockOutcome): void;
  /** The logged requests of one tenant, oldest first. */
  list(tenantId: string): LoggedRequest[];
  /** Forgets the owners of entries the log no longer keeps. */
  forget(entries: readonly LoggedRequest[]): void;
  /** Forgets every owner (with the log, on reset). */
  clear(): void;
}

/**
 * Creates the owner index of a mock's request log. With a single tenant there is nobody to hide
 * requests from: nothing is noted per request, and the whole log is listed.
 * @param api - the mock whose log is read
 * @param tenantOf - the key directory
 */
export function createRequestOwners(api: Pick<MockApi, "requests">, tenantOf: TenantOfKey): RequestOwners {
  if (!tenantOf.multiTenant) return { track() {}, list: () => api.requests.list(), forget() {}, clear() {} };
  const owners = new Map<string, string>();
  return {
    track(request, outcome) {
      if (outcome.kind !== "response") return;
      const tenantId = tenantOf(request.headers.get(API_KEY_HEADER));
      const requestId = outcome.response.headers.get("x-request-id");
      if (tenantId !== null && requestId !== null) owners.set(requestId, tenantId);
    },
    list: (tenantId) => api.requests.list().filter((entry) => owners.get(entry.requestId) === tenantId),
    forget(entries) {
      for (const entry of entries) owners.delete(entry.requestId);
    },
    clear() {
      owners.clear();
    },
  };
}
