/**
 * Parsing a JSON request body: media type and content coding (415), size (413: the adapter read no
 * more than the limit), UTF-8, JSON syntax and the JSON limits (400: a number that is not finite,
 * nesting deeper than 64 levels). Whatever arrives, the outcome is a value that can always be
 * stored and serialized again, or a typed refusal.
 * @module
 */
import * as z from "zod/mini";
import type { FieldError } from "../../src/schemas/index.js";
import { fieldError } from "../../src/schemas/issues.js";
import { jsonLimitIssues, MAX_BODY_BYTES } from "../../src/schemas/json-limits.js";

/** The body of a route that takes none, when one is sent anyway: an empty JSON object (an unknown field is a 400). */
export const NO_BODY = z.strictObject({});

/** The largest body accepted: 1 MiB (one constant for the mock and the contract check). */
export { MAX_BODY_BYTES };

/** A parsed body, or why it was refused. */
export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      readonly code: "unsupported_media_type" | "payload_too_large" | "invalid_request";
      readonly detail: string;
      /** The places that break the JSON limits, when that is the refusal. */
      readonly errors?: FieldError[];
    };

/** Whether a `Content-Type` names JSON: `application/json` or `application/<anything>+json`, with any parameters. */
export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  if (contentType === "application/json") return true;
  const essence = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return essence === "application/json" || /^application\/[!#$&^_.+\-a-z0-9]+\+json$/.test(essence);
}

/**
 * Whether a `Content-Encoding` leaves the body as sent: absent, or `identity` only. The mock
 * decodes no content coding (a gzip body is refused with 415, not misread as broken UTF-8).
 */
export function isIdentityEncoding(contentEncoding: string | null): boolean {
  if (contentEncoding === null) return true;
  return contentEncoding.split(",").every((coding) => {
    const token = coding.trim().toLowerCase();
    return token === "" || token === "identity";
  });
}

/** Strict UTF-8 (invalid bytes throw); one instance serves every request, as `decode` without `stream` keeps no state. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The refusal of a body over the cap (413): the one answer, whoever read the body (a JSON route, a raw one, the proxy). */
export const TOO_LARGE = {
  ok: false,
  code: "payload_too_large",
  detail: `The body is larger than ${MAX_BODY_BYTES} bytes (1 MiB).`,
} as const satisfies BodyResult;

/**
 * Checks and parses a JSON body from its headers and its bytes (what every adapter has).
 * @param headers - the request headers (`content-type`, `content-encoding`)
 * @param read - the body's bytes (null: larger than the limit)
 * @returns the parsed value (any JSON value: checking its shape is the schema's job) or a refusal
 */
export function parseJsonBody(headers: { get(name: string): string | null }, read: Uint8Array | null): BodyResult {
  if (!isJsonMediaType(headers.get("content-type"))) {
    return { ok: false, code: "unsupported_media_type", detail: "Send the body as JSON with Content-Type: application/json." };
  }
  if (!isIdentityEncoding(headers.get("content-encoding"))) {
    return {
      ok: false,
      code: "unsupported_media_type",
      detail: "Send the body uncompressed: the only Content-Encoding accepted is identity.",
    };
  }
  return parseBytes(read);
}

/** Decodes and parses the bytes of a body whose headers were accepted. */
function parseBytes(bytes: Uint8Array | null): BodyResult {
  if (bytes === null) return TOO_LARGE;
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, code: "invalid_request", detail: "The body is not valid UTF-8." };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: "invalid_request", detail: "The body is not valid JSON." };
  }
  const issues = jsonLimitIssues(value);
  if (issues.length === 0) return { ok: true, value };
  // Each detail starts with the field, as every field error's does.
  const errors = issues.map((issue) => fieldError(issue.path, issue.code, issue.message));
  return {
    ok: false,
    code: "invalid_request",
    detail: "The body breaks the JSON limits: numbers must be finite and nesting at most 64 levels deep (see errors).",
    errors,
  };
}
