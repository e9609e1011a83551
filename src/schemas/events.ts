import * as z from "zod/mini";

/** The closed list of webhook event kinds (spec 2.4 and 6), in the spec's order. */
export const WEBHOOK_EVENT_KINDS = [
  "page.version.created",
  "page.version.processed",
  "page.version.published",
  "form.submitted",
  "form.enriched",
  "form.enrichment_failed",
] as const;

/** One of the six webhook event kinds of spec 6. */
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** A webhook event kind from the closed list (spec 6), as a request must send it. */
export const WebhookEventKind = /* @__PURE__ */ z.enum(WEBHOOK_EVENT_KINDS);

/**
 * A webhook event kind as a response may carry it: a known kind, or any other string so that
 * a kind the API adds later never breaks a client (forward compatibility). At run time that is
 * exactly "a string" (a union with the known kinds would accept nothing more and cost bundle
 * size); the type keeps autocompletion for the known kinds.
 */
export const WebhookEventKindInResponse = /* @__PURE__ */ z.string() as unknown as z.ZodMiniType<WebhookEventKindInResponse>;

/** A webhook event kind as a response may carry it: a known kind, or a kind added later. */
export type WebhookEventKindInResponse = WebhookEventKind | (string & {});
