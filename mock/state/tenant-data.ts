/**
 * Everything one tenant owns: one {@link Collection} per row of the collections table, each keeping
 * the lookups and groups its row declares, so no request ever scans a collection: the cost of a
 * request does not grow with the stored data.
 * @module
 */
import { Collection } from "./collection.js";
import { COLLECTION_NAMES, type CollectionName, type RecordOf, rowOf } from "./collections.js";
import type { IdRegistry } from "./id-registry.js";
import type { Journal } from "./journal.js";
import type { TenantRecord } from "./records.js";

/** A tenant's collections, each named as in the table. */
export type TenantCollections = { readonly [C in CollectionName]: Collection<RecordOf<C>> };

/** One tenant's record and its collections. */
export interface TenantData extends TenantCollections {
  readonly record: TenantRecord;
}

/**
 * An empty tenant.
 * @param registry - where every collection of IDs reports the IDs it stores (the store's ID factories reserve them)
 * @param journal - where every collection reports its writes
 */
export function createTenantData(record: TenantRecord, registry: IdRegistry, journal: Journal): TenantData {
  const tenantId = record.id;
  const collection = (name: CollectionName) =>
    new Collection<object>(rowOf(name), registry, {
      put: (_key, value) => journal({ op: "put", in: name, tenantId, value }),
      delete: (id) => journal({ op: "delete", in: name, tenantId, id }),
    });
  return Object.fromEntries([["record", record], ...COLLECTION_NAMES.map((name) => [name, collection(name)])]) as TenantData;
}
