/**
 * The references of a saved state: every record of a tenant belongs to that tenant, and every
 * field its row of the collections table lists as a reference names a record of that tenant.
 * A snapshot, a state file and a restore are all refused when one points nowhere.
 * @module
 */
import { COLLECTION_NAMES, type CollectionName, keyOf, rowOf } from "../collections.js";
import type { SavedState, StateSnapshot } from "./saved-state.js";

/** A reference of a saved state that points nowhere: where it is, and the record that holds it. */
export interface DanglingReference {
  /** A JSON Pointer into the saved state, e.g. `/tenants/0/pages/1/pageGroupId`. */
  readonly pointer: string;
  readonly detail: string;
  /** The record holding it (absent for the state's own fields): its tenant, collection, key and the field. */
  readonly record?: { readonly tenantId: string; readonly collection: CollectionName; readonly id: string; readonly field: string };
}

/** The first reference of a saved state (or a snapshot: no keys) that points nowhere, or undefined. */
export function danglingReference(state: StateSnapshot & { readonly apiKeys?: SavedState["apiKeys"] }): DanglingReference | undefined {
  const tenantIds = new Set(state.tenants.map(({ tenant }) => tenant.id));
  if (state.defaultTenantId !== (state.tenants[0]?.tenant.id ?? null)) return { pointer: "/defaultTenantId", detail: "is not the first tenant" };
  for (const [index, [, tenantId]] of (state.apiKeys ?? []).entries()) {
    if (!tenantIds.has(tenantId)) return { pointer: `/apiKeys/${index}/1`, detail: "names no tenant of the state" };
  }
  for (const [t, part] of state.tenants.entries()) {
    const tenantId = part.tenant.id;
    const keys = new Map<string, ReadonlySet<string>>();
    const keysOf = (name: string) => {
      let held = keys.get(name);
      if (held === undefined) keys.set(name, (held = new Set(part[name as CollectionName].map((record) => keyOf(name as CollectionName, record)))));
      return held;
    };
    for (const collection of COLLECTION_NAMES) {
      const { schema, references } = rowOf(collection);
      const owned = "tenantId" in schema.shape;
      const named = Object.entries(references);
      const found = (i: number, record: Record<string, unknown>, field: string, detail: string): DanglingReference => ({
        pointer: `/tenants/${t}/${collection}/${i}/${field}`,
        detail,
        record: { tenantId, collection, id: keyOf(collection, record), field },
      });
      const list = part[collection] as readonly Record<string, unknown>[];
      for (let i = 0; i < list.length; i++) {
        const record = list[i]!;
        if (owned && record["tenantId"] !== tenantId) return found(i, record, "tenantId", "is not the tenant it is stored under");
        for (const [field, target] of named) {
          const value = record[field];
          if (value !== null && !keysOf(target!).has(value as string)) return found(i, record, field, "names no record of the tenant");
        }
      }
    }
  }
  return undefined;
}
