import type * as z from "zod/mini";
import { E164_PATTERN, PROSPECT_ID_PATTERN, PROSPECT_LOG_ID_PATTERN } from "./primitives.js";
import type { FieldError } from "./problem.js";

type Issue = z.core.$ZodIssue;

/**
 * Renders a path as an RFC 6901 JSON Pointer: `["events", 0]` becomes `/events/0`.
 * @param path - a Zod issue path (property names and array indexes); `~` and `/` in names are escaped
 * @returns the pointer (`""` for the root)
 * @throws Nothing: every path has a pointer.
 * @example
 * ```ts
 * toJsonPointer(["payload", "a/b", 0]); // "/payload/a~1b/0"
 * ```
 */
export function toJsonPointer(path: readonly PropertyKey[]): string {
  return path.map((key) => `/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}

/**
 * A field error whose detail starts with the field it is about (`emial is not a known field`,
 * `source must have at least 1 character`), so every message built from details names its fields.
 * @param path - where in the input
 * @param code - the machine-readable code
 * @param detail - what is wrong, without the field's name
 * @returns the field error
 * @throws Nothing.
 * @example
 * ```ts
 * fieldError(["payload", "n"], "invalid_number", "must be finite"); // { pointer: "/payload/n", detail: "payload/n must be finite", ... }
 * ```
 */
export function fieldError(path: readonly PropertyKey[], code: string, detail: string): FieldError {
  const pointer = toJsonPointer(path);
  return { pointer, code, detail: `${pointer === "" ? "the body" : pointer.slice(1)} ${detail}` };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** How many of what a length bound counts: characters of a string, items of an array, bytes of a file. */
function unit(origin: string, count: number | bigint): string {
  const noun = origin === "array" || origin === "set" ? "item" : origin === "file" ? "byte" : "character";
  return `${count} ${noun}${count === 1 || count === 1n ? "" : "s"}`;
}

/** Whether a bound is on the value itself (a number) rather than on a length. */
const isNumeric = (origin: string) => origin === "number" || origin === "int" || origin === "bigint" || origin === "date";

type Bound = { origin: string; inclusive?: boolean; exact?: boolean };

/** `must be at least 400`, `must have at least 1 character`, `must have exactly 3 items`. */
function bound(issue: Bound, limit: number | bigint, side: "small" | "big"): Pick<FieldError, "code" | "detail"> {
  if (isNumeric(issue.origin)) {
    const words = side === "small" ? (issue.inclusive === false ? "greater than" : "at least") : issue.inclusive === false ? "less than" : "at most";
    return { code: side === "small" ? "too_small" : "too_big", detail: `must be ${words} ${limit}` };
  }
  const words = issue.exact ? "exactly" : side === "small" ? "at least" : "at most";
  return { code: side === "small" ? "too_short" : "too_long", detail: `must have ${words} ${unit(issue.origin, limit)}` };
}

/** The allowed values, each as JSON: `"status", "latency"`. */
const oneOf = (values: readonly unknown[]) => `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;

const FORMAT_DETAILS: Record<string, string> = {
  email: "must be a valid email address",
  url: "must be an absolute http or https URL",
  datetime: "must be an ISO 8601 UTC date-time such as 2024-02-29T12:00:00.000Z",
};

/** Patterns a person should read in words rather than as a regular expression (a function, not a table built at load time). */
function patternDetail(pattern: string): string {
  switch (pattern) {
    case String(E164_PATTERN):
      return "must be a phone number in E.164 form: a plus sign, then 2 to 15 digits, the first not 0";
    case String(PROSPECT_ID_PATTERN):
      return "must be prospect_ followed by 26 lower-case letters or digits";
    case String(PROSPECT_LOG_ID_PATTERN):
      return "must be prospectlog_ followed by 26 lower-case letters or digits";
    default:
      return `must match the pattern ${pattern}`;
  }
}

/** Type names as a person says them. */
const TYPE_NAMES: Record<string, string> = { int: "whole number" };

function codeAndDetail(issue: Issue, missing: boolean): Pick<FieldError, "code" | "detail"> {
  if (missing) return { code: "required", detail: "is required" };
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      return { code: "invalid_type", detail: `must be ${/^[aeiou]/.test(expected) ? "an" : "a"} ${expected}` };
    }
    case "too_small":
      return bound(issue, issue.minimum, "small");
    case "too_big":
      return bound(issue, issue.maximum, "big");
    case "invalid_format": {
      const pattern = issue.format === "regex" && "pattern" in issue ? String(issue.pattern) : undefined;
      return {
        code: "invalid_format",
        detail: pattern === undefined ? (FORMAT_DETAILS[issue.format] ?? `must be a valid ${issue.format}`) : patternDetail(pattern),
      };
    }
    case "invalid_value":
      return { code: "invalid_value", detail: oneOf(issue.values) };
    case "invalid_union":
      // a discriminated union whose tag matched none of its options lists them (`kind`)
      return "options" in issue && Array.isArray(issue.options)
        ? { code: "invalid_value", detail: oneOf(issue.options) }
        : { code: "invalid", detail: "is invalid" };
    case "custom": {
      const code = typeof issue.params?.["code"] === "string" ? issue.params["code"] : "invalid";
      return { code, detail: issue.message };
    }
    default:
      return { code: "invalid", detail: "is invalid" };
  }
}

/**
 * Turns Zod issues into the field errors of a problem body: one entry per failing field (an
 * unknown field is reported under its own pointer with code `unknown_field`), so a caller sees
 * every problem at once. Used by the SDK (request validation) and the mock (400 responses) alike.
 *
 * @param issues - the issues of a failed `safeParse`
 * @param input - the value that was parsed, to tell a missing field from a wrong one
 * @returns one field error per failing field, in input order
 * @throws Nothing: any issue list gives field errors.
 * @example
 * ```ts
 * import { ProspectLogCreate, toFieldErrors } from "prospectkit";
 *
 * const input = { source: "", payload: {}, emial: "typo" };
 * const result = ProspectLogCreate.safeParse(input);
 * if (!result.success) console.log(toFieldErrors(result.error.issues, input));
 * // [{ pointer: "/source", code: "too_short", ... }, { pointer: "/emial", code: "unknown_field", ... }]
 * ```
 */
export function toFieldErrors(issues: readonly Issue[], input: unknown): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        errors.push(fieldError([...issue.path, key], "unknown_field", "is not a known field"));
      }
      continue;
    }
    const missing = issue.path.length > 0 && valueAt(input, issue.path) === undefined;
    const { code, detail } = codeAndDetail(issue, missing);
    errors.push(fieldError(issue.path, code, detail));
  }
  return errors;
}
