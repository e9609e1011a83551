import type * as z from "zod/mini";
import { toFieldErrors } from "../../../src/schemas/index.js";

/** Parses `input` and returns the field errors (empty when valid), so tables can assert pointer and code. */
export function fieldErrors(schema: z.ZodMiniType, input: unknown) {
  const result = schema.safeParse(input);
  return result.success ? [] : toFieldErrors(result.error.issues, input);
}

/** A string of `n` copies of `ch`. */
export const str = (n: number, ch = "a") => ch.repeat(n);

/** A valid-looking 26-character lower-case ULID body. */
export const ULID26 = "01hzy8k3m4n5p6q7r8s9t0v1wx";
