/**
 * One collection of a tenant: a `Map` from key to record that keeps the lookups and groups its row
 * of the collections table declares in step with its own writes (so no request ever scans it), and
 * reports each write to the journal and each stored ID to the store's registry (whatever path made
 * the write: a create request, a state helper, a fixture, a restored snapshot). A record changed in
 * place is stored again with `set`, so the journal hears of it.
 * @module
 */
import type { AnyCollectionRow } from "./collections.js";
import type { IdRegistry } from "./id-registry.js";
import type { MapJournal } from "./journal.js";

/** A collection of records, keyed, with its lookups and groups. */
export class Collection<V extends object> extends Map<string, V> {
  readonly #groupBy: string | undefined;
  readonly #registry: IdRegistry | undefined;
  readonly #journal: MapJournal<V> | undefined;
  /** Each unique lookup: its field, how a value is matched, and the records by matched value. */
  readonly #lookups: readonly { readonly field: string; readonly match: (value: string) => string; readonly index: Map<string, V> }[];
  /** Group value → the keys of its records, oldest first: a lone key kept bare, not in a list (about 56 bytes less a record, most groups holding one). */
  readonly #groups = new Map<string, string | string[]>();

  /**
   * @param row - the collection's row of the table
   * @param registry - where stored IDs are registered (when its keys are IDs)
   * @param journal - where writes are reported
   */
  constructor(row: AnyCollectionRow, registry?: IdRegistry, journal?: MapJournal<V>) {
    super();
    this.#groupBy = row.groupBy;
    this.#registry = row.ids ? registry : undefined;
    this.#journal = journal;
    const lookups = Object.entries(row.lookups ?? {}) as [string, (value: string) => string][];
    this.#lookups = lookups.map(([field, match]) => ({ field, match, index: new Map() }));
  }

  /** Stores `value` under `key`, indexed by its lookups and its group. */
  override set(key: string, value: V): this {
    this.#registry?.(key);
    this.#journal?.put(key, value);
    const fresh = !super.has(key);
    super.set(key, value);
    const fields = value as Record<string, unknown>;
    for (const { field, match, index } of this.#lookups) {
      const held = fields[field];
      if (typeof held === "string") index.set(match(held), value);
    }
    const groupBy = this.#groupBy;
    if (groupBy !== undefined && fresh) {
      const group = fields[groupBy] as string;
      const held = this.#groups.get(group);
      if (held === undefined) this.#groups.set(group, key);
      else if (typeof held === "string") this.#groups.set(group, [held, key]);
      else held.push(key);
    }
    return this;
  }

  /** Removes the record under `key` from the collection, its lookups and its group. @returns whether there was one */
  override delete(key: string): boolean {
    const value = super.get(key);
    if (value === undefined) return false;
    super.delete(key);
    this.#journal?.delete(key);
    const fields = value as Record<string, unknown>;
    for (const { field, match, index } of this.#lookups) {
      const held = fields[field];
      if (typeof held === "string" && index.get(match(held)) === value) index.delete(match(held));
    }
    const groupBy = this.#groupBy;
    if (groupBy !== undefined) {
      const group = fields[groupBy] as string;
      const held = this.#groups.get(group);
      if (held === key) this.#groups.delete(group);
      else if (Array.isArray(held)) held.splice(held.indexOf(key), 1);
    }
    return true;
  }

  /** The record whose `field` matches `value` (as its row's lookup matches it), or undefined. */
  find(field: string, value: string): V | undefined {
    const lookup = this.#lookups.find((candidate) => candidate.field === field);
    return lookup?.index.get(lookup.match(value));
  }

  /** The records of a group (those whose `groupBy` field is `value`), oldest first. */
  group(value: string): V[] {
    const held = this.#groups.get(value);
    const keys = held === undefined ? [] : typeof held === "string" ? [held] : held;
    return keys.map((key) => super.get(key)!);
  }
}
