/**
 * Where stored IDs and writes are reported. The store's tenants and keys are each an
 * {@link IdRegisteredMap}: storing one reports its ID (so the ID generators skip every taken ID
 * without any insertion path having to tell them) and every `set` and `delete` reaches the journal.
 * A tenant's records are kept the same way by their collections (`collection.ts`).
 * @module
 */
import type { MapJournal } from "./journal.js";

/**
 * Takes the ID of each stored record: the store's ID factories reserve it when they could still
 * make it (see `IdFactory.reserve`), so no ID is ever handed out twice, even after its record is removed.
 */
export type IdRegistry = (id: string) => void;

/** A `Map` keyed by ID that reports each key it stores to an {@link IdRegistry}, and each `set` and removal to its journal. */
export class IdRegisteredMap<V> extends Map<string, V> {
  readonly #registry: IdRegistry;
  readonly #journal: MapJournal<V>;

  /**
   * @param registry - where stored IDs are registered
   * @param journal - where writes are reported
   */
  constructor(registry: IdRegistry, journal: MapJournal<V>) {
    super();
    this.#registry = registry;
    this.#journal = journal;
  }

  /** Stores `value` under `id`, reports `id` as taken and the write to the journal. */
  override set(id: string, value: V): this {
    this.#registry(id);
    this.#journal.put(id, value);
    return super.set(id, value);
  }

  /** Removes the value under `id`. @returns whether there was one */
  override delete(id: string): boolean {
    const had = super.delete(id);
    if (had) this.#journal.delete(id);
    return had;
  }
}
