/**
 * Identifiers: a prefix and a lower-case ULID (`prospect_01hzy…`), so they match the spec's
 * `[a-z0-9]{26}` and sort by creation time. The random part comes from a seeded stream and the
 * time part from the mock's clock, so a seed and a clock reproduce every ID.
 * @module
 */
import { encodeTime } from "ulid";
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
   * a ULID after the last one issued (IDs only increase, so any other is never made again).
   */
  reserve(id: string): void;
  /** How many reserved IDs are remembered (each one still ahead of the factory when reserved). */
  readonly reservations: number;
}

/** Crockford's base 32 in lower case: ulid's alphabet, in the case the API's IDs use. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const TIME_LENGTH = 10;
const RANDOM_LENGTH = 16;
/** The value of each character code in {@link ALPHABET}; -1 for any other. */
const DIGIT_OF = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT_OF[ALPHABET.charCodeAt(i)] = i;

/** The base-32 value of the character at `index`, or -1 when it is not one of {@link ALPHABET}. */
const digitAt = (text: string, index: number): number => DIGIT_OF[text.charCodeAt(index)] ?? -1;

/**
 * Creates an ID factory on one random stream. It follows `ulid`'s `monotonicFactory` exactly
 * (the same draws from `random`, the same increment), so a seed gives the IDs it always gave:
 * IDs made in the same millisecond still increase (the random part is incremented), and a clock
 * that steps back never makes an ID sort before an earlier one. It keeps the random part as
 * digits, so an ID in a busy millisecond costs one increment instead of a new base-32 string, and
 * encodes the time (with `ulid`'s `encodeTime`) once per millisecond.
 * @param random - the seeded stream for the random part
 */
export function createIdFactory(random: Random): IdFactory {
  const digits = new Uint8Array(RANDOM_LENGTH);
  let lastTime = 0;
  let timeText = "";
  let randomText = "";
  /** The last ID issued ("" before the first): every later ULID sorts after its ULID. */
  let lastId = "";
  const reserved = new Set<string>();

  const spell = (from: number) => {
    let text = "";
    for (let i = from; i < RANDOM_LENGTH; i++) text += ALPHABET[digits[i]!];
    return text;
  };
  const startMillisecond = (ms: number) => {
    lastTime = ms;
    timeText = encodeTime(ms, TIME_LENGTH).toLowerCase();
    // ulid draws the last character first.
    for (let i = RANDOM_LENGTH - 1; i >= 0; i--) digits[i] = Math.floor(random() * 32) % 32;
    randomText = spell(0);
  };
  const increment = () => {
    let i = RANDOM_LENGTH - 1;
    while (i >= 0 && digits[i] === 31) digits[i--] = 0;
    // 2^80 IDs in one millisecond: ulid throws here; moving on to the next millisecond keeps IDs increasing.
    if (i < 0) return startMillisecond(lastTime + 1);
    digits[i]! += 1;
    randomText = randomText.slice(0, i) + spell(i);
  };

  /** Whether the lower-case ULID at `start` of `id` sorts after the last one issued (read in place: no copy). */
  const isAhead = (id: string, start: number): boolean => {
    if (id.length - start !== TIME_LENGTH + RANDOM_LENGTH) return false;
    let time = 0;
    for (let i = 0; i < TIME_LENGTH; i++) {
      const digit = digitAt(id, start + i);
      if (digit < 0) return false;
      time = time * 32 + digit;
    }
    // The first character of a ULID is at most 7 (48 bits of time).
    if (digitAt(id, start) > 7) return false;
    let order = lastId === "" ? 1 : Math.sign(time - lastTime);
    for (let i = 0; i < RANDOM_LENGTH; i++) {
      const digit = digitAt(id, start + TIME_LENGTH + i);
      if (digit < 0) return false;
      if (order === 0) order = Math.sign(digit - digits[i]!);
    }
    return order > 0;
  };

  return {
    next(prefix, nowMs) {
      for (;;) {
        // ulid() reads Date.now() when given 0, so the epoch itself is nudged to 1 ms to stay seeded.
        const ms = Math.max(1, nowMs);
        if (ms <= lastTime) increment();
        else startMillisecond(ms);
        // toLowerCase (a no-op on these characters) flattens the concatenation into one string:
        // a stored ID then holds one flat string (56 bytes), not a concatenation of parts (about 110).
        lastId = `${prefix}_${timeText}${randomText}`.toLowerCase();
        if (reserved.size === 0 || !reserved.has(lastId)) return lastId;
      }
    },
    reserve(id) {
      // The ID just made is the common case (a create stores what `next` gave it): never made again.
      if (id === lastId) return;
      if (isAhead(id, id.indexOf("_") + 1)) reserved.add(id);
    },
    get reservations() {
      return reserved.size;
    },
  };
}
