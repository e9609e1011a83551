/**
 * Field errors as the CLI prints them: one line for a `--data` file and a `--state` file alike.
 * @module
 */
import type { FieldError } from "../../src/schemas/index.js";

/** One line naming the first failing field, and how many more there are. */
export function describeFieldErrors(errors: readonly FieldError[]): string {
  const [first] = errors;
  if (first === undefined) return "invalid";
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? "s" : ""})` : "";
  const field = first.pointer === "" ? "the document" : first.pointer;
  const detail = first.detail.startsWith(first.pointer.slice(1)) ? first.detail.slice(first.pointer.length) : first.detail;
  return `${field}: ${detail.trim()}${more}`;
}
