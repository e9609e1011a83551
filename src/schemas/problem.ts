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
 * One problem with one field of a request: a JSON Pointer (RFC 6901) to the field, a readable
 * detail and a machine-readable code such as `required`, `too_long` or `events_empty`.
 */
export const FieldError = z.looseObject({
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
export const ProblemDetails = z.looseObject({
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
