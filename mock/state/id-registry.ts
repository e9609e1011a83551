/**
 * The registry of every ID the mock holds. Each collection of stored records is an
 * {@link IdRegisteredMap}: storing a record registers its ID, whatever path stored it (a create
 * request, a state helper, a fixture, a client-chosen `prospectId`), so the ID generator can skip
 * every taken ID without any insertion path having to remember to tell it.
 * @module
 */

/** Every ID stored in one mock (kept after a record is removed, so no ID is ever handed out twice). */
export type IdRegistry = Set<string>;

/** A `Map` keyed by record ID that registers each key it stores in an {@link IdRegistry}. */
export class IdRegisteredMap<V> extends Map<string, V> {
  readonly #registry: IdRegistry;

  /** @param registry - where stored IDs are registered */
  constructor(registry: IdRegistry) {
    super();
    this.#registry = registry;
  }

  /** Stores `value` under `id` and registers `id` as taken. */
  override set(id: string, value: V): this {
    this.#registry.add(id);
    return super.set(id, value);
  }
}
