import type { FieldError } from "../schemas/index.js";
import { type ErrorKind, ProspectKitError } from "./prospectkit-error.js";

/**
 * No HTTP response arrived: the connection was refused or dropped, DNS failed, or the response
 * body broke off. Retried (connection failures never reach the server's business logic twice
 * for a create: the idempotency key sees to that). `cause` holds the runtime's own error.
 * @example
 * ```ts
 * try {
 *   await client.createProspectLog({ ...body, idempotencyKey: "signup-42" });
 * } catch (error) {
 *   if (APIConnectionError.is(error)) queueForLater(body); // safe to send again with the same idempotencyKey
 *   else throw error;
 * }
 * ```
 */
export class APIConnectionError extends ProspectKitError {
  override get kind(): ErrorKind {
    return "APIConnectionError";
  }

  /** How many attempts were made, the retries included. */
  declare readonly attempts: number;

  /**
   * @param message - what failed (no secrets)
   * @param attempts - how many attempts were made
   * @param cause - the runtime's error
   * @internal
   */
  constructor(message: string, attempts: number, cause?: unknown) {
    super(message, { cause });
    this.attempts = attempts;
  }
}

/**
 * An attempt took longer than `timeoutMs` (or the call outlasted `totalTimeoutMs`). Retried like
 * a connection error. A subclass of {@link APIConnectionError}.
 * @example
 * ```ts
 * try {
 *   await client.getPage({ pageGroupId, pageId }, { timeoutMs: 2_000 });
 * } catch (error) {
 *   if (APITimeoutError.is(error)) console.log(`no answer after ${error.attempts} attempts`);
 *   else throw error;
 * }
 * ```
 */
export class APITimeoutError extends APIConnectionError {
  override get kind(): ErrorKind {
    return "APITimeoutError";
  }
}

/**
 * The caller's `AbortSignal` fired (before or during an attempt, or while waiting to retry).
 * Never retried, and deliberately not an {@link APIConnectionError}; `cause` is the signal's reason.
 * @example
 * ```ts
 * const controller = new AbortController();
 * setTimeout(() => controller.abort(), 1_000);
 * try {
 *   await client.getPage({ pageGroupId, pageId }, { signal: controller.signal });
 * } catch (error) {
 *   if (!APIUserAbortError.is(error)) throw error; // the caller gave up: nothing to report
 * }
 * ```
 */
export class APIUserAbortError extends ProspectKitError {
  override get kind(): ErrorKind {
    return "APIUserAbortError";
  }

  /** How many attempts were started before the abort. */
  declare readonly attempts: number;

  /**
   * @param attempts - how many attempts were started
   * @param cause - the signal's reason
   * @internal
   */
  constructor(attempts: number, cause?: unknown) {
    super("The request was aborted by the caller", { cause });
    this.attempts = attempts;
  }
}

/**
 * The request was not sent because it breaks the spec's rules. `errors` lists every problem at
 * once, each with a JSON Pointer, a readable detail and a code, exactly as the API's own 400
 * response would list them.
 *
 * @example
 * ```ts
 * try {
 *   await client.createProspectLog({ source: "", payload: {} });
 * } catch (error) {
 *   if (RequestValidationError.is(error)) console.log(error.errors); // [{ pointer: "/source", code: "too_short", ... }]
 * }
 * ```
 */
export class RequestValidationError extends ProspectKitError {
  override get kind(): ErrorKind {
    return "RequestValidationError";
  }

  /** The operation whose input was invalid, e.g. `"createProspectLog"`. */
  declare readonly operation: string;
  /** Every problem with the input. */
  declare readonly errors: FieldError[];

  /**
   * @param operation - the operation's name
   * @param errors - every problem found
   * @internal
   */
  constructor(operation: string, errors: FieldError[]) {
    super(`Invalid ${operation} input: ${errors.map((error) => error.detail).join("; ")}`);
    Object.assign(this, { operation, errors });
  }
}

/**
 * A successful response whose body is not what the spec promises: not JSON, a required field
 * missing, a wrong type (only with `validateResponses: "strict"`, the default). A field or an
 * event kind the SDK does not know is never a reason for this error.
 * @example
 * ```ts
 * try {
 *   await client.getPage({ pageGroupId, pageId });
 * } catch (error) {
 *   if (ResponseValidationError.is(error)) console.log(error.issues, error.requestId); // what broke the schema
 *   else throw error;
 * }
 * ```
 */
export class ResponseValidationError extends ProspectKitError {
  override get kind(): ErrorKind {
    return "ResponseValidationError";
  }

  /** The operation whose response was invalid. */
  declare readonly operation: string;
  /** What is wrong, each with a JSON Pointer into the body. */
  declare readonly issues: FieldError[];
  /** The body exactly as received, for diagnosis. */
  declare readonly body: string;
  /** The HTTP status of the response. */
  declare readonly status: number;
  /** The `x-request-id` of the response. */
  declare readonly requestId: string | undefined;

  /**
   * @param fields - the operation, the issues, the raw body, the status and the request ID
   * @internal
   */
  constructor(fields: { operation: string; issues: FieldError[]; body: string; status: number; requestId: string | undefined }) {
    super(`Unexpected ${fields.operation} response: ${fields.issues.map((issue) => issue.detail).join("; ")}`);
    Object.assign(this, fields);
  }
}
