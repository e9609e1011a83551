/**
 * Identifiers: a prefix and a lower-case ULID (`prospect_01hzy…`), so they match the spec's
 * `[a-z0-9]{26}` and sort by creation time. The random part comes from a seeded stream and the
 * time part from the mock's clock, so a seed and a clock reproduce every ID.
 * @module
 */
import { monotonicFactory } from "ulid";
import type { Random } from "./random.js";

/** The prefixes of the IDs the mock generates (docs/behaviour.md, "Identifiers"). */
export type IdPrefix = "tenant" | "prospect" | "prospectlog" | "pagegroup" | "page" | "pageversion" | "webhooksubscription" | "event" | "req" | "key";

/**
 * Makes IDs: `next("prospect", nowMs)` gives `prospect_` + a lower-case ULID for that time, never
 * one the factory's `isTaken` reports as existing.
 */
export interface IdFactory {
  next(prefix: IdPrefix, nowMs: number): string;
}

/**
 * Creates an ID factory on one random stream. IDs made in the same millisecond still increase
 * (the ULID is monotonic), and a clock that steps back never makes an ID sort before an earlier one.
 * A candidate that already exists (a client chose it, a fixture seeded it: with a frozen clock and
 * a fixed seed the next ID is predictable) is skipped, so a generated ID never equals a stored one
 * and a create never overwrites anything.
 * @param random - the seeded stream for the random part
 * @param isTaken - whether an ID already exists (default: none does)
 */
export function createIdFactory(random: Random, isTaken: (id: string) => boolean = () => false): IdFactory {
  const ulid = monotonicFactory(random);
  return {
    next(prefix, nowMs) {
      for (;;) {
        // ulid() reads Date.now() when given 0, so the epoch itself is nudged to 1 ms to stay seeded.
        // Lower-cased as a whole: one flat string (56 bytes), not a concatenation of two (about 110).
        const id = `${prefix}_${ulid(Math.max(1, nowMs))}`.toLowerCase();
        if (!isTaken(id)) return id;
      }
    },
  };
}
