/**
 * Validation of state-helper input with the same schemas and the same field errors as the API.
 * @module
 */
import type * as z from "zod/mini";
import { toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";

/**
 * Parses `input` with `schema`.
 * @param schema - a schema built from the spec's schemas
 * @param input - what the test passed
 * @param what - names the refused thing in the message, e.g. "a page"
 * @returns the parsed value
 * @throws {MockStateError} listing every failing field
 */
export function parseOrThrow<Schema extends z.ZodMiniType>(schema: Schema, input: unknown, what: string): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new MockStateError(`refused to store ${what}`, toFieldErrors(result.error.issues, input));
}

/**
 * Checks that `id` is free in `collection`.
 * @throws {MockStateError} when it is taken
 */
export function assertFreeId(collection: ReadonlyMap<string, unknown>, id: string, what: string): void {
  if (collection.has(id)) {
    throw new MockStateError(`refused to store ${what}`, [
      { pointer: "/id", code: "duplicate", detail: `id ${JSON.stringify(id)} is already taken` },
    ]);
  }
}
