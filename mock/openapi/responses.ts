/**
 * The error responses of the OpenAPI document: one reusable response per status, each an RFC 9457
 * problem (`application/problem+json`) with `x-request-id`, and `Retry-After` on a 429.
 * @module
 */
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import { PROBLEM_CONTENT_TYPE } from "../../src/schemas/index.js";
import type { ErrorStatus as ProblemStatus } from "../../src/schemas/problem.js";

export { REQUEST_ID_HEADER };

/** The error statuses the document describes, with the reusable response of each (a document lists those its operations use). */
const STATUSES = {
  400: ["BadRequest", "Malformed JSON, a body that is not an object, or invalid fields (all listed in `errors`)."],
  401: ["Unauthorized", "The `x-api-key` header is missing (`missing_api_key`) or unknown (`invalid_api_key`)."],
  403: [
    "Forbidden",
    "The standalone server does not answer this `Host` (`host_not_allowed`) or, for a control route, this `Origin` (`origin_not_allowed`): see `--allowed-host` and `--cors-origin`.",
  ],
  404: ["NotFound", "No such route, or no such resource in your tenant (another tenant's resource included)."],
  409: ["Conflict", "A request with the same idempotency key is still in flight."],
  413: ["PayloadTooLarge", "The body is larger than 1 MiB."],
  415: ["UnsupportedMediaType", "The body is not sent as JSON."],
  422: ["IdempotencyKeyReused", "The idempotency key was used before with a different body."],
  429: ["TooManyRequests", "Rate limited (in the mock: an injected fault); `Retry-After` says when to retry."],
  500: ["InternalError", "A server error (in the mock: an injected fault)."],
} as const satisfies Partial<Record<ProblemStatus | 403, readonly [name: string, description: string]>>;

/** A status the document has an error response for. */
export type ErrorStatus = keyof typeof STATUSES;

/** The `Retry-After` header of an answer that says when to try again. */
export const RETRY_AFTER_HEADER = {
  "retry-after": { description: "Whole seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
} as const;

function extraHeaders(status: ErrorStatus): Record<string, unknown> {
  return status === 429 ? RETRY_AFTER_HEADER : {};
}

/**
 * `components.responses`: every error response, by name.
 * @param headers - headers every response of the document carries besides `x-request-id` (the API's CORS headers)
 */
export function errorResponseComponents(headers: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(STATUSES).map((key) => {
      const status = Number(key) as ErrorStatus;
      const [name, description] = STATUSES[status];
      return [
        name,
        {
          description,
          headers: { [REQUEST_ID_HEADER]: { $ref: "#/components/headers/RequestId" }, ...headers, ...extraHeaders(status) },
          content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: "#/components/schemas/ProblemDetails" } } },
        },
      ];
    }),
  );
}

/**
 * The `responses` entries of some error statuses, as references to the reusable responses.
 * @param statuses - the statuses an operation can answer
 */
export function errorResponses(statuses: readonly ErrorStatus[]): Record<string, { $ref: string }> {
  return Object.fromEntries(statuses.map((status) => [String(status), { $ref: `#/components/responses/${STATUSES[status][0]}` }]));
}

/**
 * An error response described in place: for an operation whose answer with this status has
 * reasons of its own (a control route's refusals).
 * @param description - when the operation answers it
 * @param headers - headers it carries besides `x-request-id`
 */
export function problemResponse(description: string, headers: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    description,
    headers: { [REQUEST_ID_HEADER]: { $ref: "#/components/headers/RequestId" }, ...headers },
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: "#/components/schemas/ProblemDetails" } } },
  };
}
