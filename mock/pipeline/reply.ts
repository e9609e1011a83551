/**
 * Replies: what an operation answers, before it becomes a `Response`. Every response is JSON and
 * carries `x-request-id`; errors are RFC 9457 problem bodies (`application/problem+json`).
 * @module
 */
import type * as z from "zod/mini";
import { type ErrorCode, type FieldError, PROBLEM_CONTENT_TYPE, type ProblemDetails, toFieldErrors } from "../../src/schemas/index.js";
import { PROBLEM_STATUSES } from "../../src/schemas/problem.js";
import { utf8Length } from "../lib/utf8.js";
import { TOO_LARGE } from "./body.js";
import type { MockResponse } from "./request.js";

/**
 * What a route answers, before it is rendered: a status and a JSON body (or a text already
 * rendered, or a stream), extra headers, and whether the body is a problem.
 */
export interface Reply {
  readonly status: number;
  /** The JSON body (none for a redirect or a 204); beside `text` or `stream`, which are sent instead, what the request log keeps. */
  readonly body?: unknown;
  /** A body already rendered: a document, a page, an asset, or a malformed-body fault's cut text (its content type in `headers`, else JSON). */
  readonly text?: string;
  /** A body that keeps coming (the console's event stream), with its content type in `headers`. */
  readonly stream?: ReadableStream<Uint8Array>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Set when `body` is a problem, so the response gets `application/problem+json`. */
  readonly problem?: boolean;
}

/** The problem `type` of a code: a URN naming it (stable, never a link to follow). */
export function problemType(code: string): string {
  return `urn:prospectkit:problem:${code}`;
}

/**
 * The error codes only the standalone server answers, at its edge (a real deployment of the API
 * has no such checks): a `Host` or an `Origin` the server was not told to trust, a proxy target
 * it cannot reach, a write its state file (`--state`) cannot keep.
 */
export const SERVER_PROBLEM_STATUSES = {
  host_not_allowed: { status: 403, title: "Host not allowed" },
  origin_not_allowed: { status: 403, title: "Origin not allowed" },
  target_unreachable: { status: 502, title: "Proxy target not reachable" },
  state_not_persisted: { status: 503, title: "State not persisted" },
} as const;

/**
 * The error codes of the mock's control API (a real deployment has none): a key made for one
 * tenant asking for more than its tenant, a tenant that cannot be deleted, the limit of tenants.
 */
export const CONTROL_PROBLEM_STATUSES = {
  start_key_required: { status: 403, title: "Start key required" },
  tenant_not_deletable: { status: 403, title: "Tenant cannot be deleted" },
  tenant_limit_reached: { status: 409, title: "Tenant limit reached" },
} as const;

/** An error code the mock answers: the API's, one of the server's own, or one of the control API's. */
export type MockErrorCode = ErrorCode | keyof typeof SERVER_PROBLEM_STATUSES | keyof typeof CONTROL_PROBLEM_STATUSES;

const STATUSES: Readonly<Record<MockErrorCode, { readonly status: number; readonly title: string }>> = {
  ...PROBLEM_STATUSES,
  ...SERVER_PROBLEM_STATUSES,
  ...CONTROL_PROBLEM_STATUSES,
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

/** The 413 of a body over the cap. */
export const tooLarge = (requestId: string): Reply => problem(requestId, TOO_LARGE.code, TOO_LARGE.detail);

const NO_CONTENT = new Set([204, 304]);

/** The `content-length` of a text body: its UTF-8 bytes (the one place an answer's length is counted). */
export const contentLength = (text: string): string => String(utf8Length(text));

/**
 * Renders a reply: the one place an answer gets its body text and its content type. A `HEAD`
 * answer keeps every header of the `GET` answer, states the `content-length` its body would have
 * had and has no body (RFC 9110, 9.3.2).
 * @param reply - the route's reply
 * @param method - the request's method
 * @param extra - headers every answer of this request carries (its `x-request-id`, the server's CORS headers); the reply's own win
 */
export function render(reply: Reply, method: string, extra: Readonly<Record<string, string>>): MockResponse {
  const headers: Record<string, string> = { ...extra };
  if (reply.headers !== undefined) for (const name of Object.keys(reply.headers)) headers[name.toLowerCase()] = reply.headers[name]!;
  if (reply.stream !== undefined) return { status: reply.status, headers, body: method === "HEAD" ? null : reply.stream };
  const text = reply.text ?? (reply.body === undefined || NO_CONTENT.has(reply.status) ? "" : JSON.stringify(reply.body));
  if (reply.problem) headers["content-type"] = PROBLEM_CONTENT_TYPE;
  else if (headers["content-type"] === undefined && text !== "") headers["content-type"] = "application/json";
  if (method !== "HEAD") return { status: reply.status, headers, body: text === "" ? null : text };
  headers["content-length"] = contentLength(text);
  return { status: reply.status, headers, body: null };
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
