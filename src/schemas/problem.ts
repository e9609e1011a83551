import * as z from "zod/mini";
import { Integer } from "./primitives.js";

/**
 * Machine-readable error codes of the API (`code` of a problem body). The spec leaves errors
 * open; these are the project's decisions (see docs/behaviour.md).
 */
export const ERROR_CODES = [
  "invalid_request",
  "missing_api_key",
  "invalid_api_key",
  "not_found",
  "method_not_allowed",
  "idempotency_request_in_progress",
  "idempotency_key_reused",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "internal_error",
] as const;

/** One of the API's error codes. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The one table of error statuses: each code's HTTP status and problem `title` (docs/behaviour.md,
 * "Errors"). The mock's replies and the OpenAPI document both read it.
 * @internal
 */
export const PROBLEM_STATUSES = {
  invalid_request: { status: 400, title: "Invalid request" },
  missing_api_key: { status: 401, title: "Missing API key" },
  invalid_api_key: { status: 401, title: "Invalid API key" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  idempotency_request_in_progress: { status: 409, title: "Request with this idempotency key in progress" },
  payload_too_large: { status: 413, title: "Payload too large" },
  unsupported_media_type: { status: 415, title: "Unsupported media type" },
  idempotency_key_reused: { status: 422, title: "Idempotency key reused" },
  rate_limited: { status: 429, title: "Too many requests" },
  internal_error: { status: 500, title: "Internal error" },
} as const satisfies Record<ErrorCode, { status: number; title: string }>;

/** A status the API answers with a problem body (one of {@link PROBLEM_STATUSES}). */
export type ErrorStatus = (typeof PROBLEM_STATUSES)[ErrorCode]["status"];

/** Titles of the statuses only fault injection produces (no code of their own). @internal */
export const EXTRA_STATUS_TITLES: Readonly<Record<number, string>> = {
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

/**
 * One problem with one field of a request: a JSON Pointer (RFC 6901) to the field, a readable
 * detail and a machine-readable code such as `required`, `too_long` or `events_empty`.
 */
export const FieldError = /* @__PURE__ */ z.looseObject({
  pointer: z.string(),
  detail: z.string(),
  code: z.string(),
});

/** One problem with one field of a request. */
export type FieldError = { pointer: string; detail: string; code: string };

/**
 * An error response body: RFC 9457 problem details (`application/problem+json`) with the
 * project's `code`, `requestId` and, for field problems, `errors`. Loose, so a server may add fields.
 */
export const ProblemDetails = /* @__PURE__ */ z.looseObject({
  type: z.string(),
  title: z.string(),
  status: Integer,
  detail: z.string(),
  code: z.string(),
  requestId: z.string(),
  errors: z.optional(z.array(FieldError)),
});

/** An RFC 9457 problem details body as the API sends it. */
export type ProblemDetails = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode | (string & {});
  requestId: string;
  errors?: FieldError[];
};

/** The media type of every error response. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";
