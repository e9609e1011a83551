/**
 * The error the mock's state API throws when asked to store something the API itself would
 * never store: the same rules as the API, so no test can seed a record the API could not produce.
 * @module
 */
import type { FieldError } from "../../src/schemas/index.js";

/**
 * Thrown by `api.state` helpers for invalid input (a bad field, an unknown tenant, a duplicate
 * identifier). A `TypeError`, since it is always a mistake in the calling test.
 * @example
 * ```ts
 * try {
 *   api.state.pages.create({ id: "not a page id" });
 * } catch (error) {
 *   if (error instanceof MockStateError) console.log(error.message); // which field, and why
 * }
 * ```
 */
export class MockStateError extends TypeError {
  /** The failing fields, in the same `{ pointer, detail, code }` form as a 400 problem body. */
  readonly errors: readonly FieldError[];

  /**
   * Creates the error; its message ends with every failing field.
   * @param message - what was refused and why
   * @param errors - the failing fields, if any
   */
  constructor(message: string, errors: readonly FieldError[] = []) {
    const details = errors.map((error) => `${error.pointer || "/"}: ${error.detail}`).join("; ");
    super(details ? `${message}: ${details}` : message);
    this.name = "MockStateError";
    this.errors = errors;
  }
}
