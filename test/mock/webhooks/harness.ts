import { createWebhookDispatcher, type WebhookDispatcherOptions, type WebhookTarget } from "../../../mock/webhooks/index.js";
import { SECRET } from "../../webhooks/support/reference-signature.js";

/** Where every test's clock starts: 2024-02-29T12:00:00.000Z. */
export const START = Date.parse("2024-02-29T12:00:00.000Z");

/** A request the fake network received, read back as plain values. */
export interface Received {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How the fake endpoint answers the n-th request it receives (counting from 0). */
export type Respond = (request: Received, n: number) => Response | Promise<Response>;

/** A target that receives every kind. */
export function target(id: string, change: Partial<WebhookTarget> = {}): WebhookTarget {
  return { id, url: `https://hooks.example.com/${id}`, secret: SECRET, events: null, active: true, ...change };
}

/**
 * A dispatcher on a fake clock (`advance`), a counter as ID source and a fake network that
 * records every request and answers with `respond` (default 204).
 */
export function harness(respond: Respond = () => new Response(null, { status: 204 }), extra: Partial<WebhookDispatcherOptions> = {}) {
  let time = START;
  let ids = 0;
  const received: Received[] = [];
  const deactivated: string[] = [];
  const dispatcher = createWebhookDispatcher({
    now: () => new Date(time),
    newEventId: () => `event_${String(++ids).padStart(26, "0")}`,
    onDeactivate: ({ subscriptionId }) => deactivated.push(subscriptionId),
    // Records each request when fetch is called (not when its body is read), so the order is the dispatcher's.
    fetch: (request) => {
      const entry: Received = { method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: "" };
      const n = received.push(entry) - 1;
      return request.text().then((body) => {
        entry.body = body;
        return respond(entry, n);
      });
    },
    ...extra,
  });
  return {
    dispatcher,
    received,
    deactivated,
    /** The fake clock's time, in milliseconds since START. */
    get elapsed() {
      return time - START;
    },
    /** Moves the clock to START + `ms`. */
    at(ms: number) {
      time = START + ms;
    },
    advance(ms: number) {
      time += ms;
    },
  };
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The earliest time (ms since START) at which a pending delivery has an attempt due, or undefined. */
export function nextDue(h: ReturnType<typeof harness>): number | undefined {
  const times = h.dispatcher.list().flatMap((d) => (d.nextAttemptAt === null ? [] : [Date.parse(d.nextAttemptAt) - START]));
  return times.length ? Math.min(...times) : undefined;
}

/** Moves the clock from due time to due time, making every attempt, up to START + `end`. */
export async function runUntil(h: ReturnType<typeof harness>, end: number): Promise<void> {
  for (let due = nextDue(h); due !== undefined && due <= end; due = nextDue(h)) {
    h.at(Math.max(due, h.elapsed));
    await h.dispatcher.runDue();
  }
  h.at(end);
}
