/**
 * A mock's start state: its configured tenants with their keys, then its fixtures. It seeds a new
 * store (the start, a reset of the whole mock), and is built again apart for a tenant's reset,
 * the same whatever the start: after a state was loaded from a file, the configured tenants are
 * the ones holding their keys there (their IDs were drawn by the start that created the file).
 * @module
 */
import type { Clock } from "../lib/clock.js";
import type { Seed } from "../lib/random.js";
import { createMockState, type MockState } from "./index.js";
import { createStore, type EventSink, type Store, timestamp } from "./store.js";
import type { TenantData } from "./tenant-data.js";
import { createTenant } from "./tenants.js";

/** What a start state is made of: the options a mock was created with. */
export interface StartOptions {
  /** The configured keys, each with the tenant it was configured for (`undefined`: the default tenant). */
  readonly keys: readonly { readonly key: string; readonly tenantId: string | undefined }[];
  readonly fixtures: ((state: MockState) => void) | undefined;
  readonly clock: Clock;
  readonly seed: Seed;
}

/** The events of a start state built apart (a tenant's reset), or of a store let go: made, never delivered. */
export const quietSink =
  (store: () => Store): EventSink =>
  (type, data) => ({ id: store().newEventId(), type, createdAt: timestamp(store()), data });

/** A mock's start state. */
export function createStartState(options: StartOptions) {
  /** The configured keys by the tenant they were configured for, in order. */
  const keyGroups = (() => {
    const byTenant = new Map<string | undefined, string[]>();
    for (const { key, tenantId } of options.keys) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), key]);
    return [...byTenant];
  })();
  /** The IDs the configured tenants got at this start (generated ones too), so a start state built again gives them the same. */
  let seededIds: readonly string[] = [];
  /** The tenants of the start state as seeded: only their reset needs the start state built again. */
  let seeded: ReadonlySet<string> = new Set();

  /**
   * The configured tenants and keys, then the fixtures.
   * @param ids - the IDs the configured tenants got the first time (a generated ID holds the time it was made)
   * @returns the configured tenants' IDs, in order
   */
  function seed(into: Store, over: MockState, ids: readonly string[] = []): string[] {
    const made = keyGroups.map(([configured, apiKeys], index) => {
      const id = configured ?? ids[index];
      return createTenant(into, id === undefined ? { apiKeys } : { id, apiKeys }).id;
    });
    options.fixtures?.(over);
    return made;
  }

  /**
   * The configured tenants' IDs in `store`: a tenant configured by ID keeps it; the others are
   * the tenants that hold their keys (after a state was loaded from a file, those of the start
   * that created it), else the IDs they got at this start.
   */
  function idsIn(store: Store): string[] {
    return keyGroups.map(([configured, keys], index) => {
      if (configured !== undefined) return configured;
      const held = keys.map((key) => store.apiKeys.get(key)).find((tenantId) => tenantId !== undefined);
      return held ?? seededIds[index]!;
    });
  }

  return {
    /** Seeds a new store, the mock's current one (a start, a reset of the whole mock). */
    seedInto(store: Store, state: MockState): void {
      seededIds = seed(store, state);
      seeded = new Set(store.tenants.keys());
    },
    /**
     * A tenant's data in the start state, built apart (its events made, never delivered), or
     * undefined for a tenant the start state does not hold (one made later: its reset empties it).
     * @param store - the current store, where the configured tenants are found
     */
    dataOf(store: Store, tenantId: string): TenantData | undefined {
      const ids = idsIn(store);
      if (!ids.includes(tenantId) && !seeded.has(tenantId)) return undefined;
      const start = createStore({ clock: options.clock, seed: options.seed, sink: quietSink(() => start) });
      seed(
        start,
        createMockState(() => start),
        ids,
      );
      return start.tenants.get(tenantId);
    },
  };
}
