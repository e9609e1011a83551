import * as z from "zod/mini";
import { jsonLimitIssues } from "./json-limits.js";

/**
 * A string whose length lies within `[min, max]` (inclusive).
 * @internal
 */
/* @__NO_SIDE_EFFECTS__ */ // so that bundlers drop the schemas an import leaves unused
export function boundedString(min: number, max?: number): z.ZodMiniString<string> {
  return max === undefined ? z.string().check(z.minLength(min)) : z.string().check(z.minLength(min), z.maxLength(max));
}

/** Pattern of a prospect ID: `prospect_` and 26 lower-case letters or digits (spec 2.1, 2.2). */
export const PROSPECT_ID_PATTERN: RegExp = /^prospect_[a-z0-9]{26}$/;

/** Pattern of a prospect log ID: `prospectlog_` and 26 lower-case letters or digits (spec 2.2). */
export const PROSPECT_LOG_ID_PATTERN: RegExp = /^prospectlog_[a-z0-9]{26}$/;

/** E.164 phone number: `+`, a first digit 1–9, then 1 to 14 further digits (spec 2.1, 8). */
export const E164_PATTERN: RegExp = /^\+[1-9]\d{1,14}$/;

/** A prospect ID (spec 2.1 and 8: minimum length 1 and {@link PROSPECT_ID_PATTERN}). */
export const ProspectId = /* @__PURE__ */ z.string().check(z.minLength(1), z.regex(PROSPECT_ID_PATTERN));

/** A prospect log ID (spec 2.2: {@link PROSPECT_LOG_ID_PATTERN}). */
export const ProspectLogId = /* @__PURE__ */ z.string().check(z.regex(PROSPECT_LOG_ID_PATTERN));

/**
 * The date-time rule of spec 2.2: ISO 8601 in UTC with a `Z` suffix, optional fractional
 * seconds, calendar-valid dates with leap years respected (`2024-02-29` yes, `1900-02-29` no).
 */
export const DateTime = /* @__PURE__ */ z.iso.datetime();

/**
 * An identifier whose format the spec does not show (page, page group, tenant, subscription):
 * any non-empty string.
 */
export const OpaqueId = boundedString(1);

export { HTTP_URL_PATTERN, HttpUrl, MAX_URL_LENGTH } from "./url.js";

/**
 * The email grammar (docs/behaviour.md, "Create prospect log"): at most 254 characters; a local
 * part of at most 64 RFC 5322 dot-atom characters (no quoted strings); a domain of two or more
 * labels of letters, digits and inner hyphens (at most 63 characters each), the last one letters
 * only or an `xn--` punycode label; no IP literals. The OpenAPI document publishes this pattern.
 */
export const EMAIL_PATTERN: RegExp =
  /^(?=[\s\S]{1,254}$)(?=[^@]{1,64}@)[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?:[A-Za-z]{1,63}|[Xx][Nn]--[A-Za-z0-9-]{0,58}[A-Za-z0-9])$/;

/** An email address by {@link EMAIL_PATTERN}, the one grammar of the SDK, the mock and the OpenAPI document. */
export const Email = /* @__PURE__ */ z.email({ pattern: EMAIL_PATTERN });

/**
 * A whole number (spec 2.3 `versionNumber`, "integer-like"). A refinement on `number()` rather
 * than `int()`: the same rule at a fraction of the bundle size, since the SDK ships refinements anyway.
 */
export const Integer = /* @__PURE__ */ z.number().check(z.refine(Number.isInteger, { error: "must be a whole number" }));

/** A JSON object: a plain object, never an array or `null`. */
export type JsonObject = { [key: string]: unknown };

function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A JSON object whose content is free (spec 2.1 `payload`) within the JSON limits: finite numbers
 * only, and no deeper than 64 levels counted from the request body (the object itself is level 2,
 * a member of the body), so that whatever is stored can always be serialized and read back. The
 * value is checked, never copied, so no key is lost, not even an own `__proto__` key that
 * `JSON.parse` produced.
 */
export const JsonObjectSchema = /* @__PURE__ */ z.custom<JsonObject>(isPlainObject, { error: "must be a JSON object" }).check(
  z.check((context) => {
    for (const issue of jsonLimitIssues(context.value, { level: 2 })) {
      context.issues.push({ code: "custom", message: issue.message, input: context.value, path: [...issue.path], params: { code: issue.code } });
    }
  }),
);
