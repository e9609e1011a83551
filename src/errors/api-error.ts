import { REQUEST_ID_HEADER } from "../headers.js";
import type { Redactor } from "../redact.js";
import { ProblemDetails } from "../schemas/index.js";
import { type ErrorKind, ProspectKitError } from "./prospectkit-error.js";

export { REQUEST_ID_HEADER };

/**
 * What an {@link APIError} is made of.
 * @internal
 */
export interface APIErrorFields {
  status: number;
  code: string | undefined;
  detail: string | undefined;
  problem: ProblemDetails | undefined;
  body: unknown;
  headers: Headers;
  requestId: string | undefined;
  attempts: number;
  retryAfterMs: number | undefined;
}

/**
 * The API answered with an error status. Thrown as the subclass of its status
 * ({@link BadRequestError} 400, {@link AuthenticationError} 401, {@link PermissionDeniedError}
 * 403, {@link NotFoundError} 404, {@link ConflictError} 409, {@link UnprocessableEntityError}
 * 422, {@link RateLimitError} 429, {@link InternalServerError} 500-599); any other status,
 * one outside 100-599 included, is a plain `APIError`. A body that is not a problem document (HTML from a proxy, an empty body) still
 * gives the right class; `problem` is then `undefined` and `body` holds what was received.
 *
 * @example
 * ```ts
 * try {
 *   await client.createProspectLog({ source: "crm", payload: {} });
 * } catch (error) {
 *   if (BadRequestError.is(error)) console.log(error.problem?.errors);
 * }
 * ```
 */
export class APIError extends ProspectKitError {
  override get kind(): ErrorKind {
    return "APIError";
  }

  /** The HTTP status. */
  declare readonly status: number;
  /** The machine-readable `code` of the problem body, such as `invalid_request`, when there is one. */
  declare readonly code: string | undefined;
  /** The problem body's `detail` (or `title`), when there is one. */
  declare readonly detail: string | undefined;
  /** The RFC 9457 problem body, when the body is one; its `errors` lists field problems. */
  declare readonly problem: ProblemDetails | undefined;
  /** The body as received: parsed JSON, else the text, else `undefined` when empty. */
  declare readonly body: unknown;
  /** The response headers. */
  declare readonly headers: Headers;
  /** The `x-request-id` of the response (or the body's `requestId`), for support requests. */
  declare readonly requestId: string | undefined;
  /** How many attempts were made, the retries included. */
  declare readonly attempts: number;
  /** How long the server asked to wait before trying again (`retry-after-ms` or `Retry-After`), in ms. */
  declare readonly retryAfterMs: number | undefined;

  /**
   * @param message - the error message
   * @param fields - status, body, headers and the rest
   * @internal
   */
  constructor(message: string, fields: APIErrorFields) {
    super(message);
    Object.assign(this, fields);
  }
}

/**
 * 400: the request was malformed or failed validation; `problem.errors` lists every field problem.
 * @example
 * ```ts
 * try {
 *   await client.createProspectLog(body, { validateRequests: false });
 * } catch (error) {
 *   if (BadRequestError.is(error)) console.log(error.problem?.errors); // every field problem, by JSON Pointer
 *   else throw error;
 * }
 * ```
 */
export class BadRequestError extends APIError {
  override get kind(): ErrorKind {
    return "BadRequestError";
  }

  /** Always 400. */
  declare readonly status: 400;
}

/**
 * 401: the API key is missing, unknown or revoked (`missing_api_key`, `invalid_api_key`).
 * @example
 * ```ts
 * try {
 *   await client.getPage({ pageGroupId, pageId });
 * } catch (error) {
 *   if (AuthenticationError.is(error)) console.log(error.code); // "missing_api_key" or "invalid_api_key"
 *   else throw error;
 * }
 * ```
 */
export class AuthenticationError extends APIError {
  override get kind(): ErrorKind {
    return "AuthenticationError";
  }

  /** Always 401. */
  declare readonly status: 401;
}

/**
 * 403: the key may not perform this operation.
 * @example
 * ```ts
 * try {
 *   await client.updateWebhookSubscription({ subscriptionId, active: false });
 * } catch (error) {
 *   if (PermissionDeniedError.is(error)) console.log("this key may not do that", error.requestId);
 *   else throw error;
 * }
 * ```
 */
export class PermissionDeniedError extends APIError {
  override get kind(): ErrorKind {
    return "PermissionDeniedError";
  }

  /** Always 403. */
  declare readonly status: 403;
}

/**
 * 404: no such resource for this key's tenant (or no such route).
 * @example
 * ```ts
 * try {
 *   await client.getPage({ pageGroupId, pageId });
 * } catch (error) {
 *   if (NotFoundError.is(error)) console.log("no such page", error.requestId);
 *   else throw error;
 * }
 * ```
 */
export class NotFoundError extends APIError {
  override get kind(): ErrorKind {
    return "NotFoundError";
  }

  /** Always 404. */
  declare readonly status: 404;
}

/**
 * 409: a request with the same idempotency key is still in flight (`idempotency_request_in_progress`).
 * @example
 * ```ts
 * try {
 *   await client.createProspectLog({ ...body, idempotencyKey });
 * } catch (error) {
 *   if (ConflictError.is(error)) await retryLater(); // the first request with this key is still running
 *   else throw error;
 * }
 * ```
 */
export class ConflictError extends APIError {
  override get kind(): ErrorKind {
    return "ConflictError";
  }

  /** Always 409. */
  declare readonly status: 409;
}

/**
 * 422: the idempotency key was already used with a different body (`idempotency_key_reused`).
 * @example
 * ```ts
 * try {
 *   await client.createProspectLog({ ...body, idempotencyKey });
 * } catch (error) {
 *   if (UnprocessableEntityError.is(error)) console.log(error.code); // "idempotency_key_reused": another body under this key
 *   else throw error;
 * }
 * ```
 */
export class UnprocessableEntityError extends APIError {
  override get kind(): ErrorKind {
    return "UnprocessableEntityError";
  }

  /** Always 422. */
  declare readonly status: 422;
}

/**
 * 429: too many requests. Thrown when the retries are used up, or at once when the server asks
 * to wait longer than the SDK will (over 60 s, or beyond `totalTimeoutMs`); `retryAfterMs` says
 * how long it asked for.
 * @example
 * ```ts
 * try {
 *   await client.getPage({ pageGroupId, pageId });
 * } catch (error) {
 *   if (RateLimitError.is(error)) await new Promise((wake) => setTimeout(wake, error.retryAfterMs ?? 1000));
 *   else throw error;
 * }
 * ```
 */
export class RateLimitError extends APIError {
  override get kind(): ErrorKind {
    return "RateLimitError";
  }

  /** Always 429. */
  declare readonly status: 429;
}

/**
 * 5xx (500-599 only): the server failed (retried with backoff before this is thrown).
 * @example
 * ```ts
 * try {
 *   await client.getPage({ pageGroupId, pageId }, { maxRetries: 5 });
 * } catch (error) {
 *   if (InternalServerError.is(error)) console.log(error.status, error.attempts); // e.g. 503 6
 *   else throw error;
 * }
 * ```
 */
export class InternalServerError extends APIError {
  override get kind(): ErrorKind {
    return "InternalServerError";
  }
}

const BY_STATUS: Record<number, typeof APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

const string = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/**
 * Builds the error for an error response. The body is parsed leniently: a problem document
 * fills `problem`, `code` and `detail`; any other JSON object still lends its `code` and
 * `detail`; text that is not JSON is kept as `body`. Everything the server sent passes through
 * the redactor on its way in: the reason phrase, the headers, and the body text before it is
 * parsed (so a key the server JSON-escaped is caught too, and the values parsed from it are clean).
 *
 * @param response - the error response (its body already read)
 * @param text - the body text
 * @param attempts - how many attempts were made
 * @param retryAfterMs - the server's requested wait, if it sent one
 * @param redact - the client's redactor
 * @internal
 */
export function toAPIError(response: Response, text: string, attempts: number, retryAfterMs: number | undefined, redact: Redactor): APIError {
  const raw = redact.text(text);
  let body: unknown = raw || undefined;
  try {
    body = JSON.parse(raw);
  } catch {
    // not JSON: keep the text
  }
  const fields = ((typeof body === "object" && body) || {}) as Record<string, unknown>;
  const { status } = response;
  const headers = new Headers(redact.headers(response.headers));
  const code = string(fields.code);
  const detail = string(fields.detail) ?? string(fields.title);
  const requestId = headers.get(REQUEST_ID_HEADER) ?? string(fields.requestId);
  const problem = ProblemDetails.safeParse(body).success ? (body as ProblemDetails) : undefined;
  const ErrorClass = BY_STATUS[status] ?? (status >= 500 && status <= 599 ? InternalServerError : APIError);
  const message = `${status} ${code ?? redact.text(response.statusText)}${detail ? `: ${detail}` : ""}${requestId ? ` (request ${requestId})` : ""}`;
  return new ErrorClass(message, { status, code, detail, problem, body, headers, requestId, attempts, retryAfterMs });
}
