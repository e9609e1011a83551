/**
 * The mock's notion of "now": every timestamp it writes comes from the `now` option, so a test
 * that controls the clock controls every `createdAt`, `updatedAt` and idempotency expiry.
 * @module
 */

/** A clock: returns the current time as a `Date` or as epoch milliseconds. */
export type Clock = () => Date | number;

/** The latest instant the timestamp format `YYYY-MM-DDTHH:mm:ss.sssZ` can show (9999-12-31). */
const MAX_TIME_MS = 253_402_300_799_999;

/**
 * Reads a clock as whole epoch milliseconds.
 * @param clock - the clock to read
 * @returns milliseconds since 1970-01-01T00:00:00.000Z
 * @throws {TypeError} when the clock gives something that is not a time between 1970 and 9999
 */
export function readClock(clock: Clock): number {
  const value = clock();
  const ms = value instanceof Date ? value.getTime() : value;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0 || ms > MAX_TIME_MS) {
    throw new TypeError("the mock's `now` clock must return a Date or epoch milliseconds between 1970 and 9999");
  }
  return Math.floor(ms);
}

// The last timestamp formatted: records made within one millisecond share one string (less garbage, less heap).
let lastMs = Number.NaN;
let lastText = "";

/**
 * Formats epoch milliseconds the way the API writes every timestamp: `YYYY-MM-DDTHH:mm:ss.sssZ`.
 * @param ms - epoch milliseconds within the range {@link readClock} accepts
 */
export function formatTimestamp(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastText = new Date(ms).toISOString();
  }
  return lastText;
}
