import { unlessAborted } from "./abort.js";
import { APIConnectionError, APITimeoutError, APIUserAbortError } from "./errors/failures.js";
import type { Fetch } from "./options.js";
import type { Redactor } from "./redact.js";

/** One HTTP exchange: the response and its whole body as text. */
export interface Exchange {
  response: Response;
  text: string;
}

function describe(cause: unknown): string {
  const error = cause as { message?: unknown; cause?: { message?: unknown } } | undefined;
  const inner = error?.cause?.message;
  return `${String(error?.message ?? cause)}${inner ? ` (${String(inner)})` : ""}`;
}

/**
 * Sends one attempt and reads its body, under its own timeout and the caller's signal. The
 * timer runs until the body has been read, so a server that stalls mid-body times out too. The
 * caller's signal never switches the timer off: both are combined into one signal per attempt.
 *
 * @param fetch - the fetch to call
 * @param url - the full URL
 * @param init - method, headers and body (the signal is added here)
 * @param timeoutMs - this attempt's time limit
 * @param signal - the caller's signal, if any
 * @param attempt - this attempt's number, for the error
 * @param redact - takes the API key out of any error text
 * @returns the response and its body text
 * @throws {APIUserAbortError} when the caller's signal fired
 * @throws {APITimeoutError} when the time limit passed
 * @throws {APIConnectionError} when no complete response arrived
 * @internal
 */
export async function sendAttempt(
  fetch: Fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  attempt: number,
  redact: Redactor,
): Promise<Exchange> {
  // checked here too: a signal that fired while a hook ran must keep this attempt from being sent
  if (signal?.aborted) throw new APIUserAbortError(attempt - 1, signal.reason);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const abort = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", abort);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    return { response, text: await unlessAborted(controller.signal, () => response.text(), () => controller.signal.reason) };
  } catch (cause) {
    if (signal?.aborted) throw new APIUserAbortError(attempt, signal.reason);
    if (timedOut) throw new APITimeoutError(`Attempt ${attempt} timed out after ${timeoutMs} ms`, attempt, cause);
    throw new APIConnectionError(`Connection error: ${redact.text(describe(cause))}`, attempt, cause);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
}

/**
 * Waits `ms` before a retry, or stops at once when the caller's signal fires.
 * @throws {APIUserAbortError} when the signal fires first
 * @internal
 */
export function wait(ms: number, signal: AbortSignal | undefined, attempts: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError(attempts, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });
}
