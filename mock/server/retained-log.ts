/**
 * The server keeps the latest answered requests, not all of them: a mock that runs for days must
 * not grow without end, and a log of millions of entries would also slow every request down (the
 * garbage collector walks it). The mock's own log is emptied into a bounded archive every
 * {@link ROTATE_EVERY} requests; the view below shows both as one log, oldest first.
 * @module
 */
import type { LoggedRequest, RequestLog } from "../core.js";

/** How many answered requests a server keeps by default (`/__mock/requests`, `server.api.requests`). */
export const DEFAULT_RETAINED_REQUESTS = 10_000;

/** How many entries the mock's own log collects before they move to the archive. */
export const ROTATE_EVERY = 1_000;

/** A bounded request log over the mock's own. */
export interface RetainedLog {
  /** The log as users see it: at most the limit, oldest first. */
  readonly log: RequestLog;
  /** Moves the mock's entries to the archive once there are enough (call before each request). */
  rotate(): void;
}

/**
 * Bounds a mock's request log.
 * @param source - the mock's own log (`api.requests`)
 * @param limit - how many entries to keep (at least 1)
 * @param onDrop - told of the entries dropped from the archive
 * @returns the bounded view and its rotation
 */
export function createRetainedLog(source: RequestLog, limit: number, onDrop: (dropped: readonly LoggedRequest[]) => void = () => {}): RetainedLog {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new TypeError("the number of retained requests must be a whole number >= 1");
  let archive: LoggedRequest[] = [];
  const all = () => {
    const entries = archive.concat(source.list());
    return entries.length > limit ? entries.slice(-limit) : entries;
  };
  return {
    log: {
      list: all,
      last: () => source.last() ?? archive.at(-1),
      get size() {
        return Math.min(limit, archive.length + source.size);
      },
      clear() {
        archive = [];
        source.clear();
      },
    },
    rotate() {
      if (source.size < ROTATE_EVERY) return;
      archive = archive.concat(source.list());
      source.clear();
      if (archive.length > limit) onDrop(archive.splice(0, archive.length - limit));
    },
  };
}
