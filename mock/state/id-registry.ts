/**
 * Where stored IDs are reported. Each collection of stored records is an {@link IdRegisteredMap}:
 * storing a record reports its ID, whatever path stored it (a create request, a state helper, a
 * fixture, a client-chosen `prospectId`), so the ID generators can skip every taken ID without
 * any insertion path having to remember to tell them.
 * @module
 */

/**
 * Takes the ID of each stored record: the store's ID factories reserve it when they could still
 * make it (see `IdFactory.reserve`), so no ID is ever handed out twice, even after its record is removed.
 */
export type IdRegistry = (id: string) => void;

/** A `Map` keyed by record ID that reports each key it stores to an {@link IdRegistry}. */
export class IdRegisteredMap<V> extends Map<string, V> {
  readonly #registry: IdRegistry;

  /** @param registry - where stored IDs are registered */
  constructor(registry: IdRegistry) {
    super();
    this.#registry = registry;
  }

  /** Stores `value` under `id` and reports `id` as taken. */
  override set(id: string, value: V): this {
    this.#registry(id);
    return super.set(id, value);
  }
}
