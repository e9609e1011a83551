/**
 * `api.changes`: a tenant-scoped feed of what just changed in the mock, for adapters that show it
 * live (the server's console stream). A listener subscribes for one tenant and hears only that
 * tenant's changes; nothing is buffered, so a feed nobody listens to costs one map lookup.
 * @module
 */
import type { WebhookEventKind } from "../../src/schemas/index.js";
import type { LoggedRequest } from "./request-log.js";

/**
 * One change: an API request was answered (`request`, carrying the logged entry), the tenant's
 * data changed (`state`: an API request that wrote, or a write through the control API; `event`
 * when a webhook event was emitted), webhook deliveries moved on (`deliveries`), the whole mock was
 * reset (`reset`, heard by every tenant), or the server's state file stopped or started taking
 * writes again (`state-file`, heard by every tenant: `writable` false while every write is refused
 * with 503 `state_not_persisted`; `detail` says why, naming the file, never a secret).
 */
export type MockChange =
  | { readonly kind: "request"; readonly request: LoggedRequest }
  | { readonly kind: "event"; readonly type: WebhookEventKind }
  | { readonly kind: "state" }
  | { readonly kind: "deliveries" }
  | { readonly kind: "reset" }
  | { readonly kind: "state-file"; readonly writable: boolean; readonly detail: string };

/** Hears the changes of one tenant. */
export type MockChangeListener = (change: MockChange) => void;

/** The change feed of a mock. */
export interface MockChanges {
  /**
   * Listens to one tenant's changes until the returned function is called.
   * @param tenantId - the tenant whose changes are heard (never another's)
   * @param listener - called synchronously after each change; an exception it throws is ignored
   * @returns the function that stops listening
   */
  subscribe(tenantId: string, listener: MockChangeListener): () => void;
  /**
   * Tells one tenant's listeners of a change an adapter made (the control API announces its
   * writes with `{ kind: "state" }`); `tenantId: null` tells every tenant. A function is called
   * only when someone listens, so a change costly to describe costs nothing unheard.
   */
  announce(tenantId: string | null, change: MockChange | (() => MockChange)): void;
}

/** Creates an empty change feed. */
export function createChangeFeed(): MockChanges {
  const listeners = new Map<string, Set<MockChangeListener>>();
  const tell = (set: Set<MockChangeListener> | undefined, described: MockChange | (() => MockChange)) => {
    if (set === undefined || set.size === 0) return;
    const change = typeof described === "function" ? described() : described;
    for (const listener of [...set]) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own: the mock goes on answering.
      }
    }
  };
  return {
    subscribe(tenantId, listener) {
      let set = listeners.get(tenantId);
      if (set === undefined) listeners.set(tenantId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(tenantId) === set) listeners.delete(tenantId);
      };
    },
    announce(tenantId, change) {
      if (listeners.size === 0) return;
      if (tenantId !== null) return tell(listeners.get(tenantId), change);
      // A snapshot: a listener that re-subscribes while hearing this must not be told twice.
      for (const set of [...listeners.values()]) tell(set, change);
    },
  };
}
