/** First backoff delay, in ms; it doubles with each retry. */
export const INITIAL_BACKOFF_MS = 500;

/** Longest backoff delay, in ms. */
export const MAX_BACKOFF_MS = 8_000;

/** Longest wait the SDK accepts from `Retry-After`; a longer request ends the call at once. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Whether a response status is worth retrying: 408 Request Timeout, 429 Too Many Requests and
 * every 5xx. Other statuses would fail the same way again.
 * @internal
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The wait before retry number `retry` (1 for the first retry): 0.5 s doubling up to 8 s, less a
 * random jitter of up to 25 % so that many clients do not retry in lock-step.
 *
 * @param retry - which retry this is, from 1
 * @param random - a number in [0, 1), `Math.random()` by default
 * @returns the delay in ms
 * @internal
 */
export function backoffMs(retry: number, random: number = Math.random()): number {
  return Math.min(INITIAL_BACKOFF_MS * 2 ** (retry - 1), MAX_BACKOFF_MS) * (1 - random / 4);
}

/**
 * How long the server asks to wait: `retry-after-ms` (milliseconds), else `Retry-After` as
 * seconds or as an HTTP date. `undefined` when neither is present and valid.
 *
 * @param headers - the response headers
 * @param now - the current time in ms since the epoch
 * @returns the wait in ms (0 for a date in the past)
 * @internal
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms") || Number.NaN);
  if (ms >= 0) return ms;
  const value = headers.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (seconds >= 0) return seconds * 1000;
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN; // "-5" is no date
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
