/**
 * Canonical JSON: object keys sorted, no whitespace, written without recursion so a payload
 * nested a hundred thousand levels deep is handled like a flat one. One serializer serves the
 * idempotency fingerprint (equal bodies, whatever their key order) and the state snapshot.
 * @module
 */

/** A piece of output already rendered (punctuation, a key), kept apart from values still to render. */
class Raw {
  constructor(readonly text: string) {}
}

function pushContainer(stack: unknown[], value: object): void {
  if (Array.isArray(value)) {
    stack.push(new Raw("]"));
    for (let i = value.length - 1; i >= 0; i--) {
      stack.push(value[i] === undefined ? null : value[i]);
      if (i > 0) stack.push(new Raw(","));
    }
    stack.push(new Raw("["));
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  stack.push(new Raw("}"));
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    stack.push(record[key]);
    stack.push(new Raw(`${JSON.stringify(key)}:`));
    if (i > 0) stack.push(new Raw(","));
  }
  stack.push(new Raw("{"));
}

/**
 * Serializes a JSON value canonically: object keys in sorted order (own `__proto__` keys
 * included), `undefined` object members left out, `undefined` array items written as `null`.
 * @param value - a JSON value (what `JSON.parse` returns, or plain records of the mock's state)
 * @returns the canonical JSON text
 * @throws {TypeError} for a value JSON cannot hold (a function, a symbol, a bigint)
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Raw) out.push(item.text);
    else if (item === null) out.push("null");
    else if (typeof item === "object") pushContainer(stack, item);
    else if (typeof item === "string" || typeof item === "boolean") out.push(JSON.stringify(item));
    else if (typeof item === "number") out.push(Number.isFinite(item) ? JSON.stringify(item) : "null");
    else throw new TypeError(`canonicalJson cannot serialize a ${typeof item}`);
  }
  return out.join("");
}

/** cyrb53: a fast 53-bit string hash. */
function cyrb53(text: string, seed: number): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36).padStart(11, "0");
}

/**
 * A short fingerprint of a JSON value's canonical form (two independent 53-bit hashes), so an
 * idempotency record keeps a few bytes instead of a copy of the body. Two bodies that differ
 * only in key order have the same fingerprint.
 * @param value - the JSON value
 */
export function fingerprint(value: unknown): string {
  const text = canonicalJson(value);
  return cyrb53(text, 1) + cyrb53(text, 2);
}

/**
 * A text parsed as JSON when it is JSON, else the text itself: how an answer or a forwarded body
 * is read when nothing says it must be JSON (the proxy, the contract check).
 * @param text - the body as text
 */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
