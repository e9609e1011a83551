/**
 * The input schemas of the state helpers, built from the spec's schemas (never a rule of their
 * own), so a test can seed only what the API itself could have stored.
 * @module
 */

import * as z from "zod/mini";
import { API_KEY_CHARACTERS } from "../../src/headers.js";
import { HttpUrl, JsonObjectSchema, OpaqueId, Page, ProspectId, ProspectLogCreate, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import { PageVersionRecordSchema } from "./records.js";

/** The tenant a helper works on; the default tenant when omitted. */
const tenantId = z.optional(OpaqueId);

/**
 * An API key as the mock accepts it: 1 to 1024 visible ASCII characters, since an HTTP header
 * cannot carry anything else unchanged (surrounding spaces are trimmed by every client).
 */
export const ApiKey = z.string().check(z.regex(new RegExp(`^${API_KEY_CHARACTERS}{1,1024}$`)));

/** `state.tenants.create` input. */
export const TenantInput = z.strictObject({ id: z.optional(OpaqueId), apiKeys: z.optional(z.array(ApiKey)) });
/** What `state.tenants.create` takes. */
export type TenantInput = z.input<typeof TenantInput>;

/** `state.apiKeys.issue` input. */
export const ApiKeyInput = z.strictObject({ tenantId, key: z.optional(ApiKey) });
/** What `state.apiKeys.issue` takes. */
export type ApiKeyInput = z.input<typeof ApiKeyInput>;

const { email, phoneNumber, linkedinProfileUrl, name } = ProspectLogCreate.shape;

/** `state.prospects.create` input: the identifiers and name of a create request, plus an ID. */
export const ProspectInput = z.strictObject({ tenantId, id: z.optional(ProspectId), email, phoneNumber, linkedinProfileUrl, name });
/** What `state.prospects.create` takes. */
export type ProspectInput = z.input<typeof ProspectInput>;

/** `state.prospects.findByIdentifier` input: exactly one identifier. */
export const IdentifierInput = z.union([
  z.strictObject({ tenantId, email: z.string() }),
  z.strictObject({ tenantId, phoneNumber: z.string() }),
  z.strictObject({ tenantId, linkedinProfileUrl: z.string() }),
]);
/** What `state.prospects.findByIdentifier` takes: one identifier (and optionally `tenantId`). */
export type IdentifierInput = z.input<typeof IdentifierInput>;

/** `state.pageGroups.create` input. */
export const PageGroupInput = z.strictObject({ tenantId, id: z.optional(OpaqueId) });
/** What `state.pageGroups.create` takes. */
export type PageGroupInput = z.input<typeof PageGroupInput>;

const { customName, computedName, supplementaryContext } = Page.shape;
const pageNames = {
  customName: z.optional(customName),
  computedName: z.optional(computedName),
  supplementaryContext: z.optional(supplementaryContext),
};

/** `state.pages.create` input; without `pageGroupId` a new group is created for the page. */
export const PageInput = z.strictObject({ tenantId, id: z.optional(OpaqueId), pageGroupId: z.optional(OpaqueId), ...pageNames });
/** What `state.pages.create` takes. */
export type PageInput = z.input<typeof PageInput>;

/** `state.pages.update` input. */
export const PageUpdateInput = z.strictObject(pageNames);
/** What `state.pages.update` takes. */
export type PageUpdateInput = z.input<typeof PageUpdateInput>;

/**
 * `state.pageVersions.create` input: `versionNumber` defaults to the page's next; a number above
 * it skips the ones between (a recorded page's history is not known, only the version it is at).
 */
export const PageVersionInput = z.strictObject({
  tenantId,
  id: z.optional(OpaqueId),
  pageId: OpaqueId,
  versionNumber: z.optional(PageVersionRecordSchema.shape.versionNumber),
});
/** What `state.pageVersions.create` takes. */
export type PageVersionInput = z.input<typeof PageVersionInput>;

/** `state.pageVersions.process` input. */
export const ProcessInput = z.strictObject({ computedName });
/** What `state.pageVersions.process` takes. */
export type ProcessInput = z.input<typeof ProcessInput>;

/** `state.webhookSubscriptions.create` input: `events` null or omitted means every kind. */
export const SubscriptionInput = z.strictObject({
  tenantId,
  id: z.optional(OpaqueId),
  url: HttpUrl,
  events: z.optional(z.nullable(WebhookSubscriptionUpdate.shape.events)),
  active: z.optional(z.boolean()),
});
/** What `state.webhookSubscriptions.create` takes. */
export type SubscriptionInput = z.input<typeof SubscriptionInput>;

/** The form event kinds, which no API operation emits: a test emits them with `state.forms.emit`. */
export const FORM_EVENT_KINDS = ["form.submitted", "form.enriched", "form.enrichment_failed"] as const;

/** `state.forms.emit` input. */
export const FormEventInput = z.strictObject({ tenantId, kind: z.enum(FORM_EVENT_KINDS), data: JsonObjectSchema });
/** What `state.forms.emit` takes. */
export type FormEventInput = z.input<typeof FormEventInput>;

/** Options of the state getters: which tenant to look in. */
export interface TenantOption {
  /** Default: the default tenant (the first one created). */
  readonly tenantId?: string;
}
