/**
 * Which request made a change of the state: each request runs in its own scope (Node's
 * `AsyncLocalStorage`, so the scope follows it across its awaits), and every change made inside
 * it is recorded there. So a request's answer can wait for exactly its own changes to be written,
 * and be refused when one of them was lost.
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What one request did to the state. */
export interface RequestScope {
  /** The sequence number of its last change (0: none). */
  last: number;
  /** Whether a change of it was lost (a failed write, or a change made to a state undone meanwhile). */
  lost: boolean;
  /** How many undos had happened when it started. */
  readonly undosAtStart: number;
}

/** The scopes of the requests in flight. */
export function createScopes() {
  const storage = new AsyncLocalStorage<RequestScope>();
  const active = new Set<RequestScope>();
  return {
    /** Runs one request in a scope of its own. */
    async track<T>(undos: number, run: () => Promise<T>): Promise<T> {
      const scope: RequestScope = { last: 0, lost: false, undosAtStart: undos };
      active.add(scope);
      try {
        return await storage.run(scope, run);
      } finally {
        active.delete(scope);
      }
    },
    /** The scope of the request running now, if any. */
    current: (): RequestScope | undefined => storage.getStore(),
    /** Every request in flight with a change after `durable`: its change was lost. */
    loseAfter(durable: number): void {
      for (const scope of active) if (scope.last > durable) scope.lost = true;
    },
  };
}
