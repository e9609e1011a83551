/**
 * A fault's near misses: the requests to its operation that its `match` let pass because one of
 * the fields it names differed. `api.faults.pending()` and `GET /__mock/faults` list the latest,
 * so a test whose matched fault never fired says which field, the value seen and the value wanted.
 * @module
 */
import * as z from "zod/mini";
import { REDACTED } from "../../src/redact.js";
import type { CompiledMatch, FaultMatchValue } from "./match.js";

/** How many near misses a fault keeps (its latest). */
export const MISSES_KEPT = 5;

/** How long a string seen is kept, in characters (a near miss shows which value, not a whole body). */
const SHOWN = 64;

/** One request that differed from a fault's match in one field, as JSON. */
export const FaultNearMissSchema = z.object({
  /** The field of the match (`pageId`, `source`). */
  field: z.string(),
  /** The value the request carried (a string cut at 64 characters; absent: the field was not sent; an object or list: `"(object)"`, `"(array)"`). */
  seen: z.optional(z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** The value the match wants. */
  wanted: z.union([z.string(), z.number(), z.boolean(), z.null()]),
});

/** One request that differed from a fault's match in one field: which, the value seen and the value wanted. */
export type FaultNearMiss = z.output<typeof FaultNearMissSchema>;

/** A value as a near miss shows it: a scalar as sent (a string cut short, never the request's key), an object or list by its kind. */
function shown(value: unknown, secret: string | null | undefined): FaultMatchValue | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return "(array)";
  if (typeof value === "object" && value !== null) return "(object)";
  if (typeof value !== "string") return value as FaultMatchValue;
  if (secret && value.includes(secret)) return REDACTED;
  return value.length > SHOWN ? `${value.slice(0, SHOWN)}…` : value;
}

/**
 * The matched fields a request differed in: its path parameters (before the body is read, `body`
 * null), or its body fields once the parameters fitted.
 * @param match - the fault's compiled match
 * @param request - the request's operation, tenant, parameters and key
 * @param body - the parsed body, or null before it is read
 */
export function missesOf(
  match: CompiledMatch,
  request: { readonly params: Readonly<Record<string, string>>; readonly secret?: string | null },
  body: { readonly value: unknown } | null,
): FaultNearMiss[] {
  const miss = (field: string, seen: unknown, wanted: FaultMatchValue): FaultNearMiss => {
    const value = shown(seen, request.secret);
    return { field, ...(value !== undefined && { seen: value }), wanted };
  };
  if (body === null)
    return match.params
      .filter(([field, wanted]) => request.params[field] !== wanted)
      .map(([field, wanted]) => miss(field, request.params[field], wanted));
  if (match.body.length === 0 || match.params.some(([field, wanted]) => request.params[field] !== wanted)) return [];
  const fields = typeof body.value === "object" && body.value !== null && !Array.isArray(body.value) ? (body.value as Record<string, unknown>) : {};
  return match.body
    .filter(([field, wanted]) => !Object.hasOwn(fields, field) || fields[field] !== wanted)
    .map(([field, wanted]) => miss(field, Object.hasOwn(fields, field) ? fields[field] : undefined, wanted));
}
