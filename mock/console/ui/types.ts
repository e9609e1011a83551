/**
 * The control API's answers as the console reads them: the output types of the schemas that
 * describe them (mock/control/schemas.ts), so the views and the control API cannot drift apart.
 * Imported as types only: none of that code (nor Zod) goes into the browser bundle.
 */
import type * as z from "zod/mini";
import type {
  DeliverySchema,
  InboxMessageSchema,
  PendingFaultSchema,
  SubscriptionSecretSchema,
  TenantStateSchema,
  WebhookEventRecordSchema,
} from "../../control/schemas.js";

/** A listing: `{ data: [...] }`, oldest first. */
export interface Listing<T> {
  readonly data: readonly T[];
}

/** `GET /__mock/state`: everything the tenant holds. */
export type TenantState = z.output<typeof TenantStateSchema>;
/** A page group, as the state lists it. */
export type PageGroupRecord = TenantState["pageGroups"][number];
/** A page with its versions, as the state lists it. */
export type PageWithVersions = TenantState["pages"][number];
/** One version of a page. */
export type PageVersionRecord = PageWithVersions["versions"][number];
/** A webhook subscription without its secrets, as the state lists it. */
export type SubscriptionListing = TenantState["webhookSubscriptions"][number];
/** A prospect. */
export type ProspectRecord = TenantState["prospects"][number];
/** A prospect log entry. */
export type ProspectLogRecord = TenantState["prospectLogs"][number];

/** An armed fault (`GET /__mock/faults`). */
export type PendingFault = z.output<typeof PendingFaultSchema>;

/** A webhook event (`GET /__mock/webhook_events`). */
export type WebhookEventRecord = z.output<typeof WebhookEventRecordSchema>;
/** One event on its way to one subscription, with its attempts (`GET /__mock/webhook_deliveries`). */
export type Delivery = z.output<typeof DeliverySchema>;
/** One attempt of a delivery. */
export type DeliveryAttempt = Delivery["attempts"][number];
/** What the built-in inbox received (`GET /__mock/inbox/{name}`). */
export type InboxMessage = z.output<typeof InboxMessageSchema>;
/** A subscription's signing secrets (`GET /__mock/webhook_subscriptions/{id}/secret`). */
export type SubscriptionSecret = z.output<typeof SubscriptionSecretSchema>;
