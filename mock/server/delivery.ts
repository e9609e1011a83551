/**
 * Real webhook delivery for the standalone server: the mock's own dispatcher with a real HTTP
 * sender ({@link sendOverHttp}); a new event's deliveries are sent as soon as the request that
 * caused it is answered, and a timer runs every retry that falls due. A shutdown aborts every
 * attempt, so a receiver that never answers cannot hold the process open.
 * @module
 */
import { performance } from "node:perf_hooks";
import type { MockApi, MockApiOptions } from "../core.js";
import { sendOverHttp } from "./http-sender.js";

/** How many attempts the server has in flight at most, by default. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 8;

/** How often the server looks for due retries, in milliseconds (a new event's deliveries go at once). */
export const DELIVERY_TICK_MS = 50;

/** How the server delivers webhooks: `startMockServer`'s `webhooks` option. */
export interface ServerWebhookOptions extends NonNullable<MockApiOptions["webhooks"]> {
  /**
   * Send due deliveries on the server's own schedule (default true). With false the server only
   * records events; `POST /__mock/webhook_deliveries/run` and a redelivery still send on request.
   */
  readonly deliver?: boolean;
}

/**
 * Prepares the server's webhook delivery.
 * @param options - the `webhooks` option given to `startMockServer`
 * @returns `mockOptions` for the mock (the real sender, the concurrency limit, the stop signal), `start` to call once the mock exists, and `stop`
 * @throws {TypeError} for a `deliver` that is not a boolean
 */
export function createDeliveryLoop(options: ServerWebhookOptions = {}) {
  const { deliver = true, ...rest } = options;
  if (typeof deliver !== "boolean") throw new TypeError("startMockServer: webhooks.deliver must be a boolean");
  const concurrency = rest.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY;
  const closing = new AbortController();
  // A caller's own stop signal stops delivery too, as the server's close() does.
  rest.signal?.addEventListener("abort", () => closing.abort(rest.signal!.reason), { once: true });
  let timer: ReturnType<typeof setInterval> | undefined;
  let runDue: (() => void) | undefined;
  let soon: ReturnType<typeof setImmediate> | undefined;
  /** A new event: its deliveries go once the code that emitted it has run (one run for a burst of events). */
  const onEvent = (event: Parameters<NonNullable<ServerWebhookOptions["onEvent"]>>[0]) => {
    rest.onEvent?.(event);
    if (runDue !== undefined && soon === undefined) soon = setImmediate(() => ((soon = undefined), runDue?.()));
  };
  return {
    mockOptions: { elapsedMs: () => performance.now(), ...rest, fetch: rest.fetch ?? sendOverHttp, concurrency, signal: closing.signal, onEvent },
    /** Starts delivering; `ready` (default: always) says whether deliveries may run now (not while the state file refuses writes). */
    start(webhooks: MockApi["webhooks"], ready: () => boolean = () => true): void {
      if (!deliver) return;
      runDue = () => {
        if (webhooks.inFlight() < concurrency && ready()) void webhooks.runDue();
      };
      timer = setInterval(runDue, DELIVERY_TICK_MS);
      timer.unref();
    },
    /** Stops the timer, aborts every attempt in flight (its socket closes at once) and drops the waiting ones. */
    stop(): void {
      clearInterval(timer);
      clearImmediate(soon);
      runDue = undefined;
      closing.abort(new DOMException("The mock server is shutting down.", "AbortError"));
    },
  };
}
