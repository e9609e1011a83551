import { withBase } from "ufo";
import { unlessAborted } from "./abort.js";
import { type AttemptRequest, type Exchange, sendAttempt, wait } from "./attempt.js";
import { REQUEST_ID_HEADER, toAPIError } from "./errors/api-error.js";
import { APIConnectionError, APIUserAbortError } from "./errors/failures.js";
import { ConfigurationError, type ProspectKitError } from "./errors/prospectkit-error.js";
import type { CallEvent, RequestEvent, ResponseEvent, RetryEvent } from "./hooks.js";
import type { OperationRow } from "./operation-row.js";
import { mergeOptions, type RequestOptions, type Settings } from "./options.js";
import { prepare } from "./prepare.js";
import { backoffMs, isRetryableStatus, MAX_RETRY_AFTER_MS, retryAfterMs } from "./retry.js";
import { rejectedInput } from "./serialize.js";
import { checkResponse } from "./validate.js";

/** A result together with the HTTP response it came from. */
export interface WithResponse<T> {
  /** The parsed result. */
  data: T;
  /** The HTTP response (its body has been read). */
  response: Response;
  /** The response's `x-request-id`, for support requests. */
  requestId: string | undefined;
}

/**
 * The promise every operation returns: await it for the result, or call `withResponse()` for
 * the result together with the response and its request ID.
 */
export interface APIPromise<T> extends Promise<T> {
  /**
   * The result with its HTTP response and request ID.
   * @returns a promise of `{ data, response, requestId }`
   */
  withResponse(): Promise<WithResponse<T>>;
}

async function observe<E extends CallEvent>(
  settings: Settings,
  level: "debug" | "info" | "warn",
  message: string,
  event: E,
  hook: ((event: E) => void | Promise<void>) | undefined,
  attempts: number,
): Promise<void> {
  settings.log?.(level, message, event);
  const { signal } = settings;
  if (hook)
    await unlessAborted(
      signal,
      () => hook(event),
      () => new APIUserAbortError(attempts, signal?.reason),
    );
}

/**
 * The whole call: the input checked and converted, then attempts until one succeeds or the retry
 * policy says stop. One async function, so a call costs one frame of its own above the attempt.
 */
async function perform<T>(
  settings: Settings | undefined,
  row: OperationRow,
  input: unknown,
  options: RequestOptions | undefined,
): Promise<WithResponse<T>> {
  if (!settings) throw new ConfigurationError("not a prospectkit client: create one with createClient()");
  const s = mergeOptions(settings, options);
  const { name, method } = row;
  try {
    let request: AttemptRequest;
    try {
      const { path, body } = prepare(row, input, s.validateRequests);
      request = { method, path, headers: s.headers, body: body as object | undefined };
    } catch (error) {
      throw rejectedInput(name, s.redact, error);
    }
    const { redact, signal } = s;
    const observed = s.log || s.onRequest || s.onResponse || s.onRetry;
    // the URL ofetch will call: its own joiner (ufo's withBase), not a second one
    const shownUrl = observed ? redact.text(withBase(request.path, s.baseUrl)) : "";
    const deadline = Date.now() + s.totalTimeoutMs;
    for (let attempt = 1; ; attempt++) {
      if (signal?.aborted) throw new APIUserAbortError(attempt - 1, signal.reason);
      const call: CallEvent | undefined = observed ? { operation: name, method, url: shownUrl, attempt } : undefined;
      if (call) {
        const headers = redact.headers(request.headers);
        await observe<RequestEvent>(s, "debug", `${method} ${shownUrl}`, { ...call, headers }, s.onRequest, attempt - 1);
      }
      const started = Date.now();
      let exchange: Exchange | undefined;
      let error: ProspectKitError | undefined;
      let after: number | undefined;
      try {
        exchange = await sendAttempt(s.transport, request, Math.min(s.timeoutMs, deadline - started), signal, attempt, redact);
      } catch (cause) {
        if (!(cause instanceof APIConnectionError)) throw cause;
        error = cause;
      }
      if (exchange) {
        const { response, text } = exchange;
        const { status, headers } = response;
        const id = headers.get(REQUEST_ID_HEADER);
        const requestId = id === null ? undefined : redact.text(id);
        if (call) {
          const event = { ...call, status, requestId, durationMs: Date.now() - started, headers: redact.headers(headers) };
          await observe<ResponseEvent>(s, "info", `${status} ${method} ${shownUrl}`, event, s.onResponse, attempt);
        }
        if (response.ok) {
          return { data: checkResponse(s, name, row.result, response, text, requestId) as T, response, requestId };
        }
        after = retryAfterMs(headers);
        error = toAPIError(response, text, attempt, after, redact);
        if (!isRetryableStatus(status)) throw error;
      }
      const delay = after ?? backoffMs(attempt);
      if (attempt > s.maxRetries || (after ?? 0) > MAX_RETRY_AFTER_MS || delay > deadline - Date.now()) throw error;
      if (call) {
        const message = `retrying ${method} ${shownUrl} in ${Math.round(delay)} ms after: ${error!.message}`;
        await observe<RetryEvent>(s, "warn", message, { ...call, delayMs: delay, error: error! }, s.onRetry, attempt);
      }
      await wait(delay, signal, attempt);
    }
  } catch (error) {
    s.log?.("error", `${name} failed: ${(error as Error).message}`, { error });
    throw error;
  }
}

const ignore = () => {};

/**
 * Runs an operation with the client's settings and the call's options: validation, the request,
 * retries, response checking. Every failure is a rejection with a `ProspectKitError`.
 *
 * @param settings - the client's resolved settings (`undefined` for an object that is no client)
 * @param row - the operation's row
 * @param input - the caller's input
 * @param options - the call's options
 * @returns the result, with `withResponse()` for the response
 * @internal
 */
export function call<T>(settings: Settings | undefined, row: OperationRow, input: unknown, options?: RequestOptions): APIPromise<T> {
  const full = perform<T>(settings, row, input, options);
  const promise = full.then((result) => result.data) as APIPromise<T>;
  promise.withResponse = () => {
    promise.catch(ignore); // the caller handles `full`; the data-only promise must not report it again
    return full;
  };
  return promise;
}
