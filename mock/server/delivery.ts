/**
 * Real webhook delivery for the standalone server: the mock's own dispatcher (signing, schedule,
 * deactivation) with a real HTTP sender and a timer that runs every due delivery. The sender is
 * `fetch` with redirects never followed; a shutdown aborts every attempt in flight, so a
 * receiver that never answers cannot hold the process open.
 * @module
 */
import { performance } from "node:perf_hooks";
import type { MockApiOptions } from "../core.js";
import type { Delivery, DeliveryAttempt, WebhookFetch } from "../webhooks/index.js";

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
  /** The `webhooks` option for the mock: the real sender, durations, the concurrency limit, the attempt hook. */
  readonly mockOptions: NonNullable<MockApiOptions["webhooks"]>;
  /** Starts the timer (once the mock exists). */
  start(runDue: () => Promise<unknown>, inFlight: () => number): void;
  /** Stops the timer and aborts every attempt in flight; later outcomes are no longer reported. */
  stop(): void;
}

/**
 * Prepares the server's webhook delivery.
 * @param options - the `webhooks` option given to `startMockServer`
 * @returns the mock's webhook options and the loop to start once the mock exists
 * @throws {TypeError} for a `deliver` that is not a boolean
 */
export function createDeliveryLoop(options: ServerWebhookOptions = {}): DeliveryLoop {
  const { deliver = true, onAttempt, ...rest } = options;
  if (typeof deliver !== "boolean") throw new TypeError("startMockServer: webhooks.deliver must be a boolean");
  const concurrency = rest.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
  const closing = new AbortController();
  const send = rest.fetch ?? ((request: Request) => globalThis.fetch(request));
  const fetch: WebhookFetch = (request) => send(new Request(request, { signal: AbortSignal.any([request.signal, closing.signal]) }));
  let timer: ReturnType<typeof setInterval> | undefined;

  return {
    mockOptions: {
      elapsedMs: () => performance.now(),
      ...rest,
      concurrency,
      fetch,
      onAttempt: (attempt: DeliveryAttempt, delivery: Delivery) => {
        if (!closing.signal.aborted) onAttempt?.(attempt, delivery);
      },
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
