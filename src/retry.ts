/** First backoff delay, in ms; it doubles with each retry. */
export const INITIAL_BACKOFF_MS = 500;

/** Longest backoff delay, in ms. */
export const MAX_BACKOFF_MS = 8_000;

/** Longest wait the SDK accepts from `Retry-After`; a longer request ends the call at once. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Whether a response status is worth retrying: 408 Request Timeout, 429 Too Many Requests and
 * 500-599. Other statuses would fail the same way again; one outside 100-599 (a broken server
 * or proxy) is no server error either.
 * @internal
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
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

const SECONDS = /^\d+$/;
const MILLISECONDS = /^\d+(?:\.\d+)?$/;
/** RFC 9110 HTTP-date: IMF-fixdate, or the obsolete RFC 850 and asctime forms (all start with a day name). */
const HTTP_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? [\w :-]+$/;

/**
 * How long the server asks to wait: `retry-after-ms` (milliseconds), else `Retry-After` in its
 * two RFC 9110 forms, whole seconds (digits only) or an HTTP date. Anything else (`"soon 5"`,
 * `"0x10"`, `"-5"`, `"1e3"`) is ignored, so the normal backoff applies.
 *
 * @param headers - the response headers
 * @param now - the current time in ms since the epoch
 * @returns the wait in ms (0 for a date in the past), or `undefined`
 * @internal
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms")?.trim();
  if (ms && MILLISECONDS.test(ms)) return Number(ms);
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (SECONDS.test(value)) return Number(value) * 1000;
  const date = HTTP_DATE.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
