/**
 * `persistState`: keeps a browser mock's state across page reloads (a mock lives in the page's
 * memory): its snapshot (`api.state.snapshot()`), put back with `api.state.restore()`.
 * @module
 */
import { MockStateError } from "../lib/errors.js";
import type { MockApi } from "../mock-api.js";

/** Where {@link persistState} keeps the state, and what tells it the page is going away. */
export interface PersistStateOptions {
  /** The storage (default `globalThis.sessionStorage`: this tab only, gone when the tab closes). */
  readonly storage?: Pick<Storage, "getItem" | "setItem" | "removeItem">;
  /** The storage key (default `"prospectkit/mock state"`). */
  readonly key?: string;
  /** What fires `pagehide` (default `globalThis`, the page's window). */
  readonly page?: Pick<EventTarget, "addEventListener">;
}

const DEFAULT_KEY = "prospectkit/mock state";

/** The first line of a saved state: its format, so a state saved by another format is never read as this one. */
const FORMAT = "prospectkit/mock state snapshot 1\n";

/**
 * Keeps the mock's state across reloads of the page: puts back the state saved by the page's
 * previous load (if any) now, and saves the state whenever the page goes away (`pagehide`: a
 * reload, a navigation, a dev server's full reload). Call it right after `createMockApi`, before
 * the first request. The data is kept (every tenant's records, IDs and timestamps, idempotency
 * keys); the request log, armed faults and webhook deliveries start empty, as after a reset.
 * `api.reset()` goes back to the fixtures, and the next reload keeps that.
 *
 * A saved state is put back only into a mock created with the same tenants and keys; any other
 * (another format, other options, a storage edited by hand) is dropped with a console warning,
 * and the mock starts from its fixtures.
 *
 * @param api - the mock, just created
 * @param options - the storage (default `sessionStorage`), its key, and what fires `pagehide`
 * @returns whether a saved state was put back
 * @throws {TypeError} where there is no storage or no page (outside a browser, unless both are given)
 * @example
 * ```ts
 * const api = createMockApi({ fixtures });
 * persistState(api); // a reload keeps what the app changed
 * ```
 */
export function persistState(api: MockApi, options: PersistStateOptions = {}): boolean {
  const { storage = (globalThis as { sessionStorage?: Storage }).sessionStorage, key = DEFAULT_KEY } = options;
  const page = options.page ?? (globalThis as Partial<EventTarget>);
  if (storage === undefined) throw new TypeError("persistState: no sessionStorage here (it is for a browser page); pass { storage }");
  if (typeof page.addEventListener !== "function") throw new TypeError("persistState: no page to hear pagehide from; pass { page }");

  let restored = false;
  const saved = storage.getItem(key);
  if (saved !== null) {
    try {
      if (!saved.startsWith(FORMAT)) throw new MockStateError("refused to restore the state: it was saved in another format");
      api.state.restore(saved.slice(FORMAT.length));
      restored = true;
    } catch (error) {
      if (!(error instanceof MockStateError)) throw error;
      storage.removeItem(key);
      console.warn(`prospectkit/mock: the saved state was dropped, the mock starts from its fixtures (${error.message})`);
    }
  }

  page.addEventListener("pagehide", () => {
    try {
      storage.setItem(key, FORMAT + api.state.snapshot());
    } catch (error) {
      console.warn(`prospectkit/mock: the state could not be saved for the next load (${error instanceof Error ? error.message : String(error)})`);
    }
  });
  return restored;
}
