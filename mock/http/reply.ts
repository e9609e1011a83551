/**
 * Replies: what an operation answers, before it becomes a `Response`. Every response is JSON and
 * carries `x-request-id`; errors are RFC 9457 problem bodies (`application/problem+json`).
 * @module
 */
import type * as z from "zod/mini";
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import { type ErrorCode, type FieldError, PROBLEM_CONTENT_TYPE, type ProblemDetails, toFieldErrors } from "../../src/schemas/index.js";
import { PROBLEM_STATUSES } from "../../src/schemas/problem.js";

/** An answer: status, JSON body (or already-rendered text), extra headers. */
export interface Reply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Set when `body` is a problem, so the response gets `application/problem+json`. */
  readonly problem?: boolean;
  /** Text to send instead of `JSON.stringify(body)` (a malformed-body fault). */
  readonly rawText?: string;
}

/** The problem `type` of a code: a URN naming it (stable, never a link to follow). */
export function problemType(code: string): string {
  return `urn:prospectkit:problem:${code}`;
}

/**
 * The error codes only the standalone server answers, at its edge (a real deployment of the API
 * has no such checks): a `Host` or an `Origin` the server was not told to trust.
 */
export const SERVER_PROBLEM_STATUSES = {
  host_not_allowed: { status: 403, title: "Host not allowed" },
  origin_not_allowed: { status: 403, title: "Origin not allowed" },
} as const;

/** An error code the mock answers: the API's, or one of the server's own. */
export type MockErrorCode = ErrorCode | keyof typeof SERVER_PROBLEM_STATUSES;

const STATUSES: Readonly<Record<MockErrorCode, { readonly status: number; readonly title: string }>> = {
  ...PROBLEM_STATUSES,
  ...SERVER_PROBLEM_STATUSES,
};

/**
 * A problem reply.
 * @param requestId - the request's ID, repeated in the body
 * @param code - the error code; its status and title come from `PROBLEM_STATUSES` (src/schemas/problem.ts) or {@link SERVER_PROBLEM_STATUSES}
 * @param detail - what went wrong with this request, in a sentence
 * @param extra - field errors, extra headers, or a status overriding the code's (fault injection)
 */
export function problem(
  requestId: string,
  code: MockErrorCode,
  detail: string,
  extra: { errors?: FieldError[]; headers?: Record<string, string>; status?: number; title?: string } = {},
): Reply {
  const { status, title } = STATUSES[code];
  const body: ProblemDetails = {
    type: problemType(code),
    title: extra.title ?? title,
    status: extra.status ?? status,
    detail,
    code,
    requestId,
    ...(extra.errors && { errors: extra.errors }),
  };
  return { status: body.status, body, problem: true, ...(extra.headers && { headers: extra.headers }) };
}

/**
 * Renders a reply as a `Response` with `x-request-id` and the right content type.
 * @param reply - the reply
 * @param requestId - the request's ID
 */
export function toResponse(reply: Reply, requestId: string): Response {
  const headers = new Headers(reply.headers);
  headers.set("content-type", reply.problem ? PROBLEM_CONTENT_TYPE : "application/json");
  headers.set(REQUEST_ID_HEADER, requestId);
  return new Response(reply.rawText ?? JSON.stringify(reply.body), { status: reply.status, headers });
}

/**
 * The field errors of a failed parse, with pointers into `value`.
 * @param error - the parse error
 * @param value - what was parsed
 */
export function fieldErrorsOf(error: z.core.$ZodError, value: unknown): FieldError[] {
  return toFieldErrors(error.issues, value);
}

/**
 * The 400 reply listing every failing field (the API's bodies and the control API's inputs alike).
 * @param requestId - the request's ID
 * @param errors - every failing field
 * @param what - what was invalid: the request body (default) or the query
 */
export function invalidFields(requestId: string, errors: FieldError[], what = "request body"): Reply {
  const count = errors.length === 1 ? "1 field is" : `${errors.length} fields are`;
  return problem(requestId, "invalid_request", `The ${what} is invalid: ${count} invalid (see errors).`, { errors });
}
