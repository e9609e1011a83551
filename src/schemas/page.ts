import * as z from "zod/mini";
import { Integer, OpaqueId } from "./primitives.js";
import type { KnownFields } from "./types.js";

/**
 * Summary of a page's published version (spec 2.3). The spec gives only the types of the inner
 * fields, so each may be absent or `null` (an unpublished page has all three `null`).
 */
export const PublishedVersion = z.looseObject({
  versionId: z.optional(z.nullable(z.string())),
  versionNumber: z.optional(z.nullable(Integer)),
  publishedAt: z.optional(z.nullable(z.string())),
});

/** Summary of a page's published version (spec 2.3). */
export type PublishedVersion = KnownFields<z.output<typeof PublishedVersion>>;

/** Response of "get page with published version" (spec 2.3). Forward-compatible: unknown fields are kept. */
export const Page = z.looseObject({
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

/** A page with its published version (spec 2.3): exactly the spec's fields. */
export type Page = Omit<KnownFields<z.output<typeof Page>>, "publishedVersion"> & { publishedVersion: PublishedVersion };
