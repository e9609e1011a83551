/**
 * Seeded pseudo-random numbers: the mock's only source of randomness, so a `seed` reproduces
 * every generated ID and secret. Not for cryptography; this is a test double.
 * @module
 */
import { fnv1a32 } from "./hash.js";

/** A function returning the next number in `[0, 1)`, as the `ulid` package expects. */
export type Random = () => number;

/** The seed a mock accepts: any number or string; equal seeds give equal sequences. */
export type Seed = number | string;

/** Folds a seed into 32 bits (FNV-1a over its string form, so `1` and `"1"` agree). */
export function seedToUint32(seed: Seed): number {
  return fnv1a32(String(seed));
}

/**
 * A mulberry32 generator started from `state`; `stream` picks an independent sequence for the
 * same seed (resource IDs, request IDs, event IDs and secrets each draw from their own stream,
 * so a request that is rejected never shifts the IDs of later resources).
 *
 * @param seed - the mock's seed
 * @param stream - a small integer naming the stream
 * @returns a generator of numbers in `[0, 1)`
 */
export function createRandom(seed: Seed, stream: number): Random {
  let state = (seedToUint32(seed) ^ Math.imul(stream + 1, 0x9e3779b9)) >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `length` pseudo-random bytes from `random`. */
export function randomBytes(random: Random, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
}
