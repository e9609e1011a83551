/**
 * Identifiers: a prefix and a lower-case ULID (`prospect_01hzy…`), so they match the spec's
 * `[a-z0-9]{26}` and sort by creation time. The ULIDs come from the `ulid` package's
 * `monotonicFactory` on a seeded stream, with the time from the mock's clock, so a seed and a
 * clock reproduce every ID.
 * @module
 */
import { decodeTime, monotonicFactory } from "ulid";
import type { Random } from "./random.js";

/** The prefixes of the IDs the mock generates (docs/behaviour.md, "Identifiers"). */
export type IdPrefix = "tenant" | "prospect" | "prospectlog" | "pagegroup" | "page" | "pageversion" | "webhooksubscription" | "event" | "req" | "key";

/**
 * Makes IDs: `next("prospect", nowMs)` gives `prospect_` + a lower-case ULID for that time, never
 * one that was {@link IdFactory.reserve | reserved}.
 */
export interface IdFactory {
  next(prefix: IdPrefix, nowMs: number): string;
  /**
   * Marks an ID that was stored by other means (a client chose it, a fixture seeded it) as taken,
   * so `next` never returns it. Only an ID this factory could still make is remembered: one with
   * a ULID after the last one issued (ULIDs only increase, so any other is never made again).
   */
  reserve(id: string): void;
  /**
   * Moves the factory past `id` (a restored state's greatest stored ID): every later ID sorts
   * after it, from the next millisecond on, so no stored ID is ever made and none need be reserved.
   */
  skipPast(id: string): void;
  /** How many reserved IDs are remembered (each one still ahead of the factory when reserved). */
  readonly reservations: number;
}

/** A lower-case ULID: 48 bits of time (a first character of at most 7), then 80 random bits, in Crockford's base 32. */
const LOWER_ULID = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/**
 * Creates an ID factory on one random stream: `ulid`'s monotonic factory, so IDs made in the
 * same millisecond still increase and a clock that steps back never makes an ID sort before an
 * earlier one.
 * @param random - the seeded stream for the random part
 */
export function createIdFactory(random: Random): IdFactory {
  const ulid = monotonicFactory(random);
  /** The latest millisecond an ID was made for (a clock that steps back keeps incrementing it). */
  let lastMs = 0;
  /** The ULID part of the last ID issued ("" before the first): lower-case ULIDs sort as strings. */
  let last = "";
  let lastId = "";
  const reserved = new Set<string>();
  const make = (nowMs: number): string => {
    // ulid reads Date.now() when given 0, so the epoch itself is nudged to 1 ms to stay seeded.
    lastMs = Math.max(lastMs, nowMs, 1);
    try {
      return ulid(lastMs);
    } catch {
      // 2^80 IDs in one millisecond: ulid throws; the next millisecond keeps IDs increasing.
      lastMs += 1;
      return ulid(lastMs);
    }
  };
  return {
    next(prefix, nowMs) {
      for (;;) {
        last = make(nowMs).toLowerCase();
        lastId = `${prefix}_${last}`;
        if (reserved.size === 0 || !reserved.delete(lastId)) return lastId;
      }
    },
    reserve(id) {
      // The ID just made is the common case (a create stores what `next` gave it): never made again.
      if (id === lastId) return;
      const part = id.slice(id.indexOf("_") + 1);
      if (part > last && LOWER_ULID.test(part)) reserved.add(id); // compared first: a restored state's IDs are all behind
    },
    skipPast(id) {
      const part = id.slice(id.indexOf("_") + 1);
      if (!LOWER_ULID.test(part) || part <= last) return;
      last = part;
      lastId = id;
      lastMs = Math.max(lastMs, decodeTime(part.toUpperCase()) + 1);
      for (const held of reserved) if (held.slice(held.indexOf("_") + 1) <= last) reserved.delete(held);
    },
    get reservations() {
      return reserved.size;
    },
  };
}
