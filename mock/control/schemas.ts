/**
 * The control API's bodies, as Zod schemas: the requests are the mock's state-helper inputs
 * without `tenantId` (the API key decides the tenant), so the control API accepts exactly what
 * `api.state` accepts; the responses describe the records `api.state` returns. The router
 * validates with them and the OpenAPI document is generated from them.
 * @module
 */
import * as z from "zod/mini";
import { DateTime, JsonObjectSchema, OpaqueId, Page, WebhookEventKind } from "../../src/schemas/index.js";
import { FaultArmingSchema, FaultOperation, FaultSchema } from "../faults/faults.js";
import { FaultMatchSchema } from "../faults/match.js";
import { FaultNearMissSchema } from "../faults/near-misses.js";
import { LoggedRequestSchema } from "../observe/request-log.js";
import { FormEventInput, PageGroupInput, PageInput, PageVersionInput, ProcessInput, SubscriptionInput } from "../state/inputs.js";
import {
  nullableString,
  PageGroupRecordSchema,
  PageVersionRecordSchema,
  ProspectLogRecordSchema,
  ProspectRecordSchema,
  WebhookSubscriptionRecordSchema,
} from "../state/records.js";
import { DeliveryAttemptSchema, DeliverySchema, DeliveryStatusSchema } from "../webhooks/index.js";

export {
  DeliveryAttemptSchema,
  DeliverySchema,
  DeliveryStatusSchema,
  FaultOperation,
  LoggedRequestSchema,
  PageGroupRecordSchema,
  PageVersionRecordSchema,
  ProspectLogRecordSchema,
  ProspectRecordSchema,
  WebhookSubscriptionRecordSchema,
};

const withoutTenant = { tenantId: true } as const;

/** `POST /__mock/page_groups`: an optional ID. */
export const ControlPageGroupCreate = z.omit(PageGroupInput, withoutTenant);
/** `POST /__mock/pages`: without `pageGroupId` the page gets a new group. */
export const ControlPageCreate = z.omit(PageInput, withoutTenant);
/** `POST /__mock/page_versions`: the page, and optionally the version's ID. */
export const ControlPageVersionCreate = z.omit(PageVersionInput, withoutTenant);
/** `POST /__mock/page_versions/{versionId}/process`: the computed name the AI found. */
export const ControlPageVersionProcess = ProcessInput;
/** `POST /__mock/webhook_subscriptions`: `events` null or omitted means every kind. */
export const ControlSubscriptionCreate = z.omit(SubscriptionInput, withoutTenant);

/**
 * `POST /__mock/faults`: one fault for the caller's tenant's next calls (default: the next call of
 * any operation); `match` narrows it to the requests of `operation` whose path parameters and body
 * fields equal the values given. The same schema checks `api.faults`' arguments.
 */
export const ControlFault = FaultArmingSchema;
/** What `POST /__mock/faults` takes. */
export type ControlFault = z.output<typeof ControlFault>;

/** `GET /__mock/prospect_logs` query: only the logs of one prospect. */
export const ControlProspectLogQuery = z.strictObject({ prospectId: z.optional(OpaqueId) });

// Responses: the records of `api.state` (their schemas live with them, in state/records.ts), as JSON.

/** A subscription as listings show it: without its signing secrets, current or previous (ask for those on their own). */
export const SubscriptionListingSchema = z.omit(WebhookSubscriptionRecordSchema, { secret: true, previousSecret: true });

/**
 * A subscription's signing secret, handed out on request only; after a rotation also the
 * previous one, while it still signs beside the new one.
 */
export const SubscriptionSecretSchema = z.object({
  id: OpaqueId,
  secret: WebhookSubscriptionRecordSchema.shape.secret,
  previousSecret: z.nullable(WebhookSubscriptionRecordSchema.shape.previousSecret.def.innerType),
});

/** `GET /__mock/state`: everything one tenant holds (defined below its parts). */
export const TenantStateSchema = z.object({
  prospects: z.array(ProspectRecordSchema),
  prospectLogs: z.array(ProspectLogRecordSchema),
  pageGroups: z.array(PageGroupRecordSchema),
  pages: z.array(z.object({ ...Page.shape, versions: z.array(PageVersionRecordSchema) })),
  webhookSubscriptions: z.array(SubscriptionListingSchema),
});

/** A fault still armed; `remaining: null` lasts until the faults are cleared; without `match` it applies to every call of its operation. */
export const PendingFaultSchema = z.object({
  fault: FaultSchema,
  operation: FaultOperation,
  match: z.optional(FaultMatchSchema),
  remaining: z.nullable(z.int()),
  /** A fault with a match only: the latest requests to its operation that differed in a matched field. */
  nearMisses: z.optional(z.array(FaultNearMissSchema)),
});

/** `GET /__mock/requests.har`'s answer: an HTTP Archive 1.2 (its entries as mock/observe/har.ts writes them). */
export const HarSchema = z.object({
  log: z.object({
    version: z.literal("1.2"),
    creator: z.object({ name: z.string(), version: z.string() }),
    entries: z.array(z.record(z.string(), z.unknown())),
  }),
});

/** `POST /__mock/reset` query: `scope=server` resets the whole mock (every tenant); the default, `tenant`, the caller's. */
export const ControlResetQuery = z.strictObject({ scope: z.optional(z.enum(["tenant", "server"])) });

/** `POST /__mock/tenants`' answer: the new tenant and its key (a secret: keep it out of logs). */
export const IsolatedTenantSchema = z.object({ tenantId: OpaqueId, apiKey: z.string() });

/** `GET /__mock/tenant`: the caller's tenant, and whether `POST /__mock/tenants` made it (then its keys reset only itself, and it can be deleted). */
export const CallerTenantSchema = z.object({ tenantId: OpaqueId, createdAt: DateTime, isolated: z.boolean() });

/** `DELETE /__mock/tenants/{tenantId}`' answer: the tenant that was deleted. */
export const DeletedTenantSchema = z.object({ deleted: z.literal(true), tenantId: OpaqueId });

/** A list answer: `{ data: [...] }`, oldest first. */
export function listOf<Item extends z.ZodMiniType>(item: Item) {
  return z.object({ data: z.array(item) });
}

/** `GET /__mock/requests`: the request log's entries (with what adapters attach beside, as each documents it: `logEntriesWith`). */
export const LOGGED_REQUESTS = listOf(LoggedRequestSchema);

/** The request log's entries with the fields adapters attach (the server's proxy), for the server's control document. */
export const logEntriesWith = (fields: z.ZodMiniObject) => listOf(z.extend(LoggedRequestSchema, fields.shape));

/** `POST /__mock/reset`'s answer: what was reset. */
export const ResetResult = z.object({ reset: z.literal(true), scope: z.enum(["tenant", "server"]) });

// Webhooks: events, deliveries, secrets and the built-in inbox.

/** `POST /__mock/webhook_events`: a form event (no API operation emits these) with its JSON `data` object. */
export const ControlFormEvent = z.omit(FormEventInput, withoutTenant);

/** A webhook event as its deliveries carry it: `{ id, type, createdAt, data }`. */
export const WebhookEventRecordSchema = z.object({ id: OpaqueId, type: WebhookEventKind, createdAt: DateTime, data: JsonObjectSchema });

/** `GET /__mock/webhook_deliveries` query: narrow the list to one event, subscription or status. */
export const ControlDeliveryQuery = z.strictObject({
  eventId: z.optional(OpaqueId),
  subscriptionId: z.optional(OpaqueId),
  status: z.optional(DeliveryStatusSchema),
});

/** What the inbox found when it verified a request. */
export const InboxVerificationSchema = z.object({
  verified: z.boolean(),
  /** The subscription whose secret verified it (or, unverified, the one that points at this inbox). */
  subscriptionId: z.nullable(OpaqueId),
  /** Why it did not verify: a `WebhookVerificationError` code such as `invalid_signature`. */
  code: nullableString,
  message: nullableString,
});

/** A request the built-in inbox received. */
export const InboxMessageSchema = z.object({
  id: z.int().check(z.gte(1)),
  inbox: z.string(),
  receivedAt: DateTime,
  headers: z.object({ "webhook-id": nullableString, "webhook-timestamp": nullableString, "webhook-signature": nullableString }),
  body: z.string(),
  event: z.nullable(WebhookEventRecordSchema),
  verification: InboxVerificationSchema,
});
