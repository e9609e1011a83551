/**
 * Which subscriptions point at each name of the server's built-in inbox (`POST /__mock/inbox/{name}`),
 * kept in step with every write of a subscription: the store feeds it the journal's changes (a
 * subscription stored, changed or removed, a tenant's data cleared), so no path that writes a
 * subscription can forget it. A receive then looks up its name instead of scanning every tenant:
 * its cost does not grow with the number of tenants.
 * @module
 */
import type { StateChange } from "./journal.js";

/** Where the inbox lives: `POST {INBOX_PATH}/{name}`. */
export const INBOX_PATH = "/__mock/inbox";

/** One subscription, by its tenant and ID. */
export interface SubscriptionRef {
  readonly tenantId: string;
  readonly subscriptionId: string;
}

/**
 * The inbox name a subscription URL points at (any host: the server may be reached by several
 * names), or undefined for a URL outside the inbox.
 */
export function inboxNameOf(url: string): string | undefined {
  try {
    const path = new URL(url).pathname;
    return path.startsWith(`${INBOX_PATH}/`) ? decodeURIComponent(path.slice(INBOX_PATH.length + 1)) : undefined;
  } catch {
    return undefined;
  }
}

/** Creates an empty index. */
export function createInboxIndex() {
  /** Inbox name → tenant → the IDs of its subscriptions pointing there. */
  const byName = new Map<string, Map<string, Set<string>>>();
  /** Tenant → subscription → the name it points at (to move it when its URL changes). */
  const named = new Map<string, Map<string, string>>();

  function remove(tenantId: string, subscriptionId: string): void {
    const ofTenant = named.get(tenantId);
    const name = ofTenant?.get(subscriptionId);
    if (name === undefined) return;
    ofTenant!.delete(subscriptionId);
    if (ofTenant!.size === 0) named.delete(tenantId);
    const tenants = byName.get(name)!;
    const ids = tenants.get(tenantId)!;
    ids.delete(subscriptionId);
    if (ids.size === 0) tenants.delete(tenantId);
    if (tenants.size === 0) byName.delete(name);
  }

  function add(tenantId: string, subscriptionId: string, name: string): void {
    let ofTenant = named.get(tenantId);
    if (ofTenant === undefined) named.set(tenantId, (ofTenant = new Map()));
    ofTenant.set(subscriptionId, name);
    let tenants = byName.get(name);
    if (tenants === undefined) byName.set(name, (tenants = new Map()));
    let ids = tenants.get(tenantId);
    if (ids === undefined) tenants.set(tenantId, (ids = new Set()));
    ids.add(subscriptionId);
  }

  function forgetTenant(tenantId: string): void {
    for (const subscriptionId of [...(named.get(tenantId)?.keys() ?? [])]) remove(tenantId, subscriptionId);
  }

  return {
    /** Hears one change of the state (the store calls it for every change, before the journal). */
    hear(change: StateChange): void {
      if ((change.op === "put" || change.op === "delete") && change.in === "webhookSubscriptions") {
        const id = change.op === "put" ? (change.value as { id: string }).id : change.id;
        remove(change.tenantId, id);
        const name = change.op === "put" ? inboxNameOf((change.value as { url: string }).url) : undefined;
        if (name !== undefined) add(change.tenantId, id, name);
      } else if (change.op === "clear" || change.op === "delete-tenant") forgetTenant(change.tenantId);
      else if (change.op === "reset") {
        byName.clear();
        named.clear();
      }
    },
    /**
     * The subscriptions pointing at an inbox name, by tenant, in the order the tenants first
     * pointed there. An entry may be stale after a state was loaded in place: callers look each
     * one up.
     */
    pointingAt(name: string): ReadonlyMap<string, ReadonlySet<string>> {
      return byName.get(name) ?? new Map();
    },
    /** Forgets everything (a state loaded in place: its subscriptions are stored again). */
    clear(): void {
      byName.clear();
      named.clear();
    },
  };
}

/** The index of a store. */
export type InboxIndex = ReturnType<typeof createInboxIndex>;
