/**
 * Real webhook delivery for the standalone server: the mock's own dispatcher (signing, schedule,
 * deactivation, the one in-flight cap) with a real HTTP sender ({@link sendOverHttp}: a
 * connection per attempt, closed when it ends) and a timer that runs every due delivery. A
 * shutdown aborts every attempt in flight and drops the waiting ones, so a receiver that never
 * answers cannot hold the process open.
 * @module
 */
import { performance } from "node:perf_hooks";
import type { MockApiOptions } from "../core.js";
import { sendOverHttp } from "./http-sender.js";

/** How many attempts the server has in flight at most, by default. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 8;

/** How often the server looks for due deliveries, in milliseconds. */
export const DELIVERY_TICK_MS = 50;

/** How the server delivers webhooks: `startMockServer`'s `webhooks` option. */
export interface ServerWebhookOptions extends NonNullable<MockApiOptions["webhooks"]> {
  /**
   * Send due deliveries on the server's own schedule (default true). With false the server only
   * records events; `POST /__mock/webhook_deliveries/run` and a redelivery still send on request.
   */
  readonly deliver?: boolean;
}

/** A running delivery loop. */
export interface DeliveryLoop {
  /** The `webhooks` option for the mock: the real sender, durations, the concurrency limit, the attempt hook, the stop signal. */
  readonly mockOptions: NonNullable<MockApiOptions["webhooks"]>;
  /** Starts the timer (once the mock exists). */
  start(runDue: () => Promise<unknown>, inFlight: () => number): void;
  /** Stops the timer, aborts every attempt in flight (its socket closes at once) and drops the waiting ones; nothing more is reported. */
  stop(): void;
}

/**
 * Prepares the server's webhook delivery.
 * @param options - the `webhooks` option given to `startMockServer`
 * @returns the mock's webhook options and the loop to start once the mock exists
 * @throws {TypeError} for a `deliver` that is not a boolean
 */
export function createDeliveryLoop(options: ServerWebhookOptions = {}): DeliveryLoop {
  const { deliver = true, ...rest } = options;
  if (typeof deliver !== "boolean") throw new TypeError("startMockServer: webhooks.deliver must be a boolean");
  const concurrency = rest.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
  const closing = new AbortController();
  // A caller's own stop signal stops delivery too, as the server's close() does.
  rest.signal?.addEventListener("abort", () => closing.abort(rest.signal!.reason), { once: true });
  let timer: ReturnType<typeof setInterval> | undefined;

  return {
    mockOptions: {
      elapsedMs: () => performance.now(),
      ...rest,
      fetch: rest.fetch ?? sendOverHttp,
      concurrency,
      signal: closing.signal,
    },
    start(runDue, inFlight) {
      if (!deliver) return;
      timer = setInterval(() => {
        if (inFlight() < concurrency) void runDue();
      }, DELIVERY_TICK_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      closing.abort(new DOMException("The mock server is shutting down.", "AbortError"));
    },
  };
}
