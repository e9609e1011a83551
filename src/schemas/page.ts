import * as z from "zod/mini";
import { Integer, OpaqueId } from "./primitives.js";

/**
 * Summary of a page's published version (spec 2.3). The spec gives only the types of the inner
 * fields; the three are always present, and all `null` on a page never published (BEHAVIOUR), so
 * a reader never has to tell "absent" from "null".
 */
export const PublishedVersion = /* @__PURE__ */ z.looseObject({
  versionId: z.nullable(z.string()),
  versionNumber: z.nullable(Integer),
  publishedAt: z.nullable(z.string()),
});

/** Summary of a page's published version (spec 2.3): all three `null` when the page was never published. */
export interface PublishedVersion {
  /** The published version's ID. */
  versionId: string | null;
  /** The published version's number, counting from 1 within the page. */
  versionNumber: number | null;
  /** When it was published (ISO 8601). */
  publishedAt: string | null;
}

/** Response of "get page with published version" (spec 2.3). Forward-compatible: unknown fields are kept. */
export const Page = /* @__PURE__ */ z.looseObject({
  pageId: OpaqueId,
  pageGroupId: OpaqueId,
  tenantId: OpaqueId,
  createdAt: z.iso.datetime({ offset: true }),
  effectiveName: z.string(),
  customName: z.nullable(z.string()),
  computedName: z.string(),
  supplementaryContext: z.nullable(z.string()),
  publishedVersion: PublishedVersion,
});

/**
 * A page with its published version (spec 2.3): exactly the spec's fields. A type test proves it
 * equals the {@link Page} schema's output without index signatures.
 */
export interface Page {
  /** The page's ID. */
  pageId: string;
  /** The ID of the page group it belongs to. */
  pageGroupId: string;
  /** The ID of the tenant that owns it. */
  tenantId: string;
  /** When the page was created (ISO 8601). */
  createdAt: string;
  /** `customName` when set and not blank, else `computedName`. */
  effectiveName: string;
  /** The name a user gave it; `null` when none. */
  customName: string | null;
  /** The name computed for it. */
  computedName: string;
  /** Extra context; `null` when none. */
  supplementaryContext: string | null;
  /** Its published version; all three fields `null` when never published. */
  publishedVersion: PublishedVersion;
}
