/**
 * FNV-1a over a string's UTF-16 code units: a small, stable, non-cryptographic 32-bit hash. It
 * folds a seed into the random stream's start (so `1` and `"1"` agree) and tags the console's
 * built assets with their content.
 * @module
 */

/**
 * The 32-bit FNV-1a hash of a string.
 * @param text - the string
 * @returns an unsigned 32-bit integer
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
