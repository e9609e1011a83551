/**
 * The records the mock stores, as its state API shows them. Every field a response needs is here;
 * nothing here is ever shown by the API that the spec does not list.
 * @module
 */
import type { JsonObject, WebhookEventKind } from "../../src/schemas/index.js";

/** A tenant: the owner of all data that its API keys can reach. */
export interface TenantRecord {
  readonly id: string;
  readonly createdAt: string;
}

/** A prospect and the identifiers it holds (each identifier belongs to at most one prospect of a tenant). */
export interface ProspectRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly createdAt: string;
  /** As first received; matched case-insensitively. */
  email: string | null;
  /** E.164, matched exactly. */
  phoneNumber: string | null;
  /** As first received; matched after normalisation (see `normaliseLinkedinUrl`). */
  linkedinProfileUrl: string | null;
  name: string | null;
}

/** One stored prospect log entry. */
export interface ProspectLogRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly prospectId: string;
  readonly source: string;
  readonly type: string;
  /** The request's payload, kept whole (never copied, so no key is lost). */
  readonly payload: JsonObject;
  readonly createdAt: string;
  readonly createdProspect: boolean;
  readonly idempotencyKey: string | null;
}

/** A page group: the parent of pages. */
export interface PageGroupRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly createdAt: string;
}

/** A page and its names. */
export interface PageRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly pageGroupId: string;
  readonly createdAt: string;
  customName: string | null;
  /** The name computed by AI: the initial one, then that of the last processed version. */
  computedName: string;
  supplementaryContext: string | null;
  /** The version published last, or `null` when the page was never published. */
  publishedVersionId: string | null;
  /** How many versions the page has (the next version is numbered one more). */
  versionCount: number;
}

/** Where a page version stands: created, then processed (a computed name), then published. */
export type PageVersionStatus = "created" | "processed" | "published";

/** One version of a page. */
export interface PageVersionRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly pageId: string;
  /** Counts from 1 within the page. */
  readonly versionNumber: number;
  readonly createdAt: string;
  status: PageVersionStatus;
  computedName: string | null;
  processedAt: string | null;
  publishedAt: string | null;
}

/** A webhook subscription, with the secret that signs its deliveries. */
export interface WebhookSubscriptionRecord {
  readonly id: string;
  readonly tenantId: string;
  url: string;
  /** `null` means every event kind. */
  events: WebhookEventKind[] | null;
  active: boolean;
  /** `whsec_` + base64 of 24 seeded bytes; never shown by the API. Replaced by a rotation. */
  secret: string;
  /** After a rotation: the secret it replaced, which keeps signing (beside the new one) until `expiresAt`. */
  previousSecret?: { secret: string; expiresAt: string };
  readonly createdAt: string;
  updatedAt: string;
}
