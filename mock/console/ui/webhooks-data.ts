/**
 * What the webhooks view reads: the tenant's events and deliveries, and the built-in inboxes its
 * subscriptions point at (`…/__mock/inbox/{name}`). Null when the server has no webhook routes.
 */
import { call } from "./api.js";

/** The webhook listings of one tenant. */
export interface WebhooksData {
  /** The tenant's subscriptions the listings were read with (they say why an event went nowhere). */
  readonly subscriptions: readonly any[];
  readonly events: readonly any[];
  readonly deliveries: readonly any[];
  /** Inbox name → the messages it received. */
  readonly inboxes: Readonly<Record<string, readonly any[]>>;
}

/** The inbox a subscription URL points at on this server, if it does. */
export function inboxOf(url: unknown): string | null {
  if (typeof url !== "string") return null;
  const match = /\/__mock\/inbox\/([^/?#]+)$/.exec(url);
  if (match === null) return null;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/**
 * Reads everything the view shows.
 * @param subscriptions - the tenant's subscriptions (their URLs name the inboxes)
 */
export async function loadWebhooks(subscriptions: readonly any[]): Promise<WebhooksData | null> {
  const names = [...new Set(subscriptions.map((s) => inboxOf(s?.url)).filter((name): name is string => name !== null))];
  const [events, deliveries, ...inboxes] = await Promise.all([
    call("GET", "/__mock/webhook_events"),
    call("GET", "/__mock/webhook_deliveries"),
    ...names.map((name) => call("GET", `/__mock/inbox/${encodeURIComponent(name)}`)),
  ]);
  if (!events.ok || !deliveries.ok) return null;
  const list = (answer: { ok: boolean; body: any }) => (answer.ok && Array.isArray(answer.body?.data) ? answer.body.data : []);
  return {
    subscriptions,
    events: list(events),
    deliveries: list(deliveries),
    inboxes: Object.fromEntries(names.map((name, index) => [name, list(inboxes[index]!)])),
  };
}
