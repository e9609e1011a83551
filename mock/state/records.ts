/**
 * The records the mock stores, as its state API shows them. Every field a response needs is here;
 * nothing here is ever shown by the API that the spec does not list.
 * @module
 */
import * as z from "zod/mini";
import {
  DateTime,
  HttpUrl,
  JsonObjectSchema,
  OpaqueId,
  ProspectId,
  ProspectLog,
  ProspectLogCreate,
  ProspectLogId,
  WebhookEventKind,
} from "../../src/schemas/index.js";
import { WebhookSecretSchema } from "../webhooks/index.js";

/**
 * A tenant: the owner of all data that its API keys can reach. `isolated` is set on a tenant made
 * for one test or CI job (`api.isolate()`, `POST /__mock/tenants`): the kind a mock holds at most
 * `maxTenants` of, that may be deleted, and whose keys reset only their own tenant.
 */
export const TenantRecordSchema = z.object({ id: OpaqueId, createdAt: DateTime, isolated: z.optional(z.literal(true)) });

/** A string, or `null` when there is none. */
export const nullableString = z.nullable(z.string());

/** A Standard Webhooks signing secret: `whsec_` and the base64 key. */
const WebhookSecret = WebhookSecretSchema;

/** The create request's own rules for what a record keeps of it (one source: a stored record is what the API accepted). */
const { source, type, email, phoneNumber, linkedinProfileUrl, name, idempotencyKey } = ProspectLogCreate.shape;

/** A page group. */
export const PageGroupRecordSchema = z.object({ id: OpaqueId, tenantId: OpaqueId, createdAt: DateTime });

/** A page version and where it stands (created, processed, published). */
export const PageVersionRecordSchema = z.object({
  id: OpaqueId,
  tenantId: OpaqueId,
  pageId: OpaqueId,
  versionNumber: z.int().check(z.gte(1)),
  createdAt: DateTime,
  status: z.enum(["created", "processed", "published"]),
  computedName: nullableString,
  processedAt: z.nullable(DateTime),
  publishedAt: z.nullable(DateTime),
});

/** A page and its names (the computed name is the initial one, then that of the last processed version). */
export const PageRecordSchema = z.object({
  id: OpaqueId,
  tenantId: OpaqueId,
  pageGroupId: OpaqueId,
  createdAt: DateTime,
  customName: nullableString,
  computedName: z.string(),
  supplementaryContext: nullableString,
  publishedVersionId: z.nullable(OpaqueId),
  versionCount: z.int().check(z.gte(0)),
});

/** A webhook subscription with its tenant and the `whsec_` secret that signs its deliveries. */
export const WebhookSubscriptionRecordSchema = z.object({
  id: OpaqueId,
  tenantId: OpaqueId,
  url: HttpUrl,
  events: z.nullable(z.array(WebhookEventKind)),
  active: z.boolean(),
  secret: WebhookSecret,
  previousSecret: z.optional(z.object({ secret: WebhookSecret, expiresAt: DateTime })),
  createdAt: DateTime,
  updatedAt: DateTime,
});

/** A prospect and the identifiers it holds. */
export const ProspectRecordSchema = z.object({
  id: ProspectId,
  tenantId: OpaqueId,
  createdAt: DateTime,
  email: z.nullable(email.def.innerType),
  phoneNumber: z.nullable(phoneNumber.def.innerType),
  linkedinProfileUrl: z.nullable(linkedinProfileUrl.def.innerType),
  name: z.nullable(name.def.innerType),
});

/** A stored prospect log entry, payload included. */
export const ProspectLogRecordSchema = z.object({
  id: ProspectLogId,
  tenantId: OpaqueId,
  prospectId: ProspectId,
  source,
  type: type.def.innerType,
  payload: JsonObjectSchema,
  createdAt: DateTime,
  createdProspect: z.boolean(),
  idempotencyKey: z.nullable(idempotencyKey.def.innerType),
});

/** What an idempotency key remembers: the key, the body's fingerprint, the answer (`null` while its request is in flight) and when it was stored. */
export const IdempotencyRecordSchema = z.object({
  key: idempotencyKey.def.innerType,
  fingerprint: z.string(),
  result: z.nullable(ProspectLog),
  storedAtMs: z.number(),
});

// Each record's type is its schema's output, kept under its own name (an interface, not an alias),
// so an editor's hover and a compile error say `PageRecord` instead of spelling out an object literal.

/** A tenant: the owner of all data that its API keys can reach. */
export interface TenantRecord extends Readonly<z.output<typeof TenantRecordSchema>> {}

/** A prospect and the identifiers it holds (each identifier belongs to at most one prospect of a tenant; the email as first received, matched case-insensitively; the phone number in E.164, matched exactly). */
export interface ProspectRecord extends z.output<typeof ProspectRecordSchema> {}

/** One stored prospect log entry (its payload kept whole, never copied, so no key is lost). */
export interface ProspectLogRecord extends z.output<typeof ProspectLogRecordSchema> {}

/** What an idempotency key remembers: the body's fingerprint, the answer to replay (`null` while its first request is in flight) and when it was stored (epoch ms; the window starts there). */
export interface IdempotencyRecord extends Omit<z.output<typeof IdempotencyRecordSchema>, "result"> {
  result: ProspectLog | null;
}

/** A page and its names: `computedName` is the initial one, then that of the last processed version; `publishedVersionId` is the version published last (`null` when never published); `versionCount` is how many versions it has (the next is numbered one more). */
export interface PageRecord extends z.output<typeof PageRecordSchema> {}

/** A page group: the parent of pages. */
export interface PageGroupRecord extends z.output<typeof PageGroupRecordSchema> {}

/** Where a page version stands: created, then processed (a computed name), then published. */
export type PageVersionStatus = PageVersionRecord["status"];

/** One version of a page (`versionNumber` counts from 1 within the page). */
export interface PageVersionRecord extends z.output<typeof PageVersionRecordSchema> {}

/** The secret a rotation replaced, signing beside the new one until `expiresAt`. */
export type PreviousSecret = NonNullable<WebhookSubscriptionRecord["previousSecret"]>;

/** A webhook subscription with the secret that signs its deliveries (`events: null` means every kind; a rotation keeps the replaced secret signing until `previousSecret.expiresAt`). */
export interface WebhookSubscriptionRecord extends z.output<typeof WebhookSubscriptionRecordSchema> {}
