/**
 * Where stored IDs and writes are reported. Each collection of stored records is an
 * {@link IdRegisteredMap}: storing a record reports its ID, whatever path stored it (a create
 * request, a state helper, a fixture, a client-chosen `prospectId`), so the ID generators can skip
 * every taken ID without any insertion path having to remember to tell them; and every `set` and
 * `delete` reaches the collection's journal (a record changed in place is stored again with `set`).
 * @module
 */
import type { MapJournal } from "./journal.js";

/**
 * Takes the ID of each stored record: the store's ID factories reserve it when they could still
 * make it (see `IdFactory.reserve`), so no ID is ever handed out twice, even after its record is removed.
 */
export type IdRegistry = (id: string) => void;

/** A `Map` that reports each `set` and each removal to its journal (a state file's journal; none in process). */
export class JournaledMap<V> extends Map<string, V> {
  readonly #journal: MapJournal<V> | undefined;

  /** @param journal - where writes are reported */
  constructor(journal?: MapJournal<V>) {
    super();
    this.#journal = journal;
  }

  /** Stores `value` under `id` (a record changed in place is stored again, so the journal hears of it). */
  override set(id: string, value: V): this {
    this.#journal?.put(id, value);
    return super.set(id, value);
  }

  /** Removes the value under `id`. @returns whether there was one */
  override delete(id: string): boolean {
    const had = super.delete(id);
    if (had) this.#journal?.delete(id);
    return had;
  }
}

/** A {@link JournaledMap} keyed by record ID that also reports each key it stores to an {@link IdRegistry}. */
export class IdRegisteredMap<V> extends JournaledMap<V> {
  readonly #registry: IdRegistry;

  /**
   * @param registry - where stored IDs are registered
   * @param journal - where writes are reported
   */
  constructor(registry: IdRegistry, journal?: MapJournal<V>) {
    super(journal);
    this.#registry = registry;
  }

  /** Stores `value` under `id` and reports `id` as taken. */
  override set(id: string, value: V): this {
    this.#registry(id);
    return super.set(id, value);
  }
}
