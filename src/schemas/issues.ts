import type * as z from "zod/mini";
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
  return path.map((key) => "/" + String(key).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
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

function unit(origin: string, count: number | bigint): string {
  const noun = origin === "array" || origin === "set" ? "item" : "character";
  return `${count} ${noun}${count === 1 || count === 1n ? "" : "s"}`;
}

const FORMAT_DETAILS: Record<string, string> = {
  email: "must be a valid email address",
  url: "must be an absolute http or https URL",
  datetime: "must be an ISO 8601 UTC date-time such as 2024-02-29T12:00:00.000Z",
};

function describe(issue: Issue, missing: boolean): Pick<FieldError, "code" | "detail"> {
  if (missing) return { code: "required", detail: "is required" };
  switch (issue.code) {
    case "invalid_type":
      return { code: "invalid_type", detail: `must be ${/^[aeiou]/.test(issue.expected) ? "an" : "a"} ${issue.expected}` };
    case "too_small":
      return { code: "too_short", detail: `must have at least ${unit(issue.origin, issue.minimum as number)}` };
    case "too_big":
      return { code: "too_long", detail: `must have at most ${unit(issue.origin, issue.maximum as number)}` };
    case "invalid_format":
      return {
        code: "invalid_format",
        detail:
          issue.format === "regex" && "pattern" in issue
            ? `must match the pattern ${String(issue.pattern)}`
            : (FORMAT_DETAILS[issue.format] ?? `must be a valid ${issue.format}`),
      };
    case "invalid_value":
      return { code: "invalid_value", detail: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}` };
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
    const { code, detail } = describe(issue, missing);
    errors.push(fieldError(issue.path, code, detail));
  }
  return errors;
}
