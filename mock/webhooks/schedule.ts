const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * How long after a failed attempt the next one is made: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h
 * (the Standard Webhooks / Svix schedule). Entry `n` is the wait after attempt `n + 1` failed.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

/** Attempts per delivery: the first one plus one per retry delay (8). */
export const WEBHOOK_MAX_ATTEMPTS: number = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** A subscription whose attempts have all failed for this long (5 days) is deactivated. */
export const WEBHOOK_DEACTIVATE_AFTER_MS: number = 5 * 24 * HOUR;

/** How long one attempt may take before it counts as failed (15 s), unless the dispatcher is told otherwise. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS: number = 15 * SECOND;

/**
 * When the attempt after a failed attempt `attempt` (counting from 1) is due.
 * @param timeScale - how many times faster than real time the schedule runs (1: the real schedule)
 * @returns the time, or `null` when `attempt` was the last one
 */
export function nextAttemptTime(attempt: number, at: Date, timeScale = 1): Date | null {
  const delay = WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? null : new Date(at.getTime() + Math.ceil(delay / timeScale));
}
