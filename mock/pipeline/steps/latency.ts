/**
 * The latency step: an API request's answer waits its latency (the server's `--latency` plus a
 * latency fault) before it leaves. A route that writes waits it earlier, once the request is in
 * flight (`delay()`: after claiming an idempotency key); a dropped connection does not wait.
 * @module
 */
import type { Step } from "../exchange.js";

/**
 * @param baseMs - what every API request waits (the server's `--latency`)
 */
export const latency =
  (baseMs: number): Step =>
  async (x, next) => {
    x.latencyMs += baseMs;
    await next(x);
    const waiting = x.reply === null ? undefined : x.delay();
    if (waiting !== undefined) await waiting;
  };
