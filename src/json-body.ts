/**
 * A JSON request body for a row of the operation table: its schema and its converter. Only rows
 * that take a body name it, so the converter (and the idempotency key's generator) stays out of a
 * bundle that uses only operations without one.
 * @module
 */
import type * as z from "zod/mini";
import type { RequestBody, RetryClass } from "./operation-row.js";
import { toJsonBody } from "./serialize.js";

/** A random UUID v4 for an idempotency key: `crypto.randomUUID` where it exists (not in every browser context), else `getRandomValues`. */
function uuid(): string {
  return (
    crypto.randomUUID?.() ??
    // each 0 and 1 becomes a random hex digit; the 4 (version) stays; the 8 becomes 8 to b (variant 10xx)
    "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (digit) =>
      (Number(digit) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(digit) / 4)))).toString(16),
    )
  );
}

/**
 * The body of the `idempotency-key` retry class always carries an `idempotencyKey` (the caller's,
 * or a generated UUID), the same on every attempt, so a retry can never do the change twice.
 */
function encode(operation: string, fields: unknown, retry: RetryClass): object {
  const keyed =
    retry === "idempotency-key" && !(fields as { idempotencyKey?: unknown } | undefined)?.idempotencyKey
      ? { ...(fields as object), idempotencyKey: uuid() }
      : fields;
  return toJsonBody(operation, keyed) as object;
}

/**
 * A JSON body checked by `schema`.
 * @param schema - the body's schema (spec 2)
 * @returns the row's `request`
 * @internal
 */
export function json(schema: z.ZodMiniType): RequestBody {
  return { schema, encode };
}
