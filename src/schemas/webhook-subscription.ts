import * as z from "zod/mini";
import { WebhookEventKind, WebhookEventKindInResponse } from "./events.js";
import { DateTime, HttpUrl, OpaqueId } from "./primitives.js";

/**
 * Request body of "update webhook subscription" (spec 4.3). Every field is optional (`{}` is a
 * no-op); unknown fields are rejected; `events` must list at least one known kind (an empty
 * array is rejected with the field code `events_empty`; `null` is not accepted in a request).
 */
export const WebhookSubscriptionUpdate = /* @__PURE__ */ z.strictObject({
  url: z.optional(HttpUrl),
  events: z.optional(
    /* @__PURE__ */ z.array(WebhookEventKind).check(
      z.refine((events) => events.length > 0, {
        error: "must list at least one event kind",
        params: { code: "events_empty" },
      }),
    ),
  ),
  active: z.optional(z.boolean()),
});

/**
 * The changes to apply to a webhook subscription (spec 4.3). A type test proves it equals the
 * input of the {@link WebhookSubscriptionUpdate} schema.
 */
export interface WebhookSubscriptionUpdate {
  /** Where to deliver events: an absolute http(s) URL of at most 2048 characters. */
  url?: string | undefined;
  /** The event kinds to deliver: at least one; duplicates are dropped. */
  events?: WebhookEventKind[] | undefined;
  /** Whether events are delivered. */
  active?: boolean | undefined;
}

/**
 * A webhook subscription as the API returns it (spec 2.4). `events: null` means every event
 * kind. Forward-compatible: unknown fields are kept and an unknown event kind is accepted.
 */
export const WebhookSubscription = /* @__PURE__ */ z.looseObject({
  id: OpaqueId,
  url: z.url(),
  events: z.nullable(z.array(WebhookEventKindInResponse)),
  active: z.boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
});

/**
 * A webhook subscription (spec 2.4): exactly the spec's fields. A type test proves it equals the
 * {@link WebhookSubscription} schema's output without its index signature.
 */
export interface WebhookSubscription {
  /** The subscription's ID. */
  id: string;
  /** Where events are delivered. */
  url: string;
  /** The event kinds delivered; `null` means every kind. */
  events: WebhookEventKindInResponse[] | null;
  /** Whether events are delivered. */
  active: boolean;
  /** When it was created (ISO 8601, UTC). */
  createdAt: string;
  /** When a value last changed (ISO 8601, UTC). */
  updatedAt: string;
}
