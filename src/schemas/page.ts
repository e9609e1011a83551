import * as z from "zod/mini";
import { OpaqueId } from "./primitives.js";
import type { Exact } from "./types.js";

const publishedVersionShape = {
  versionId: z.optional(z.nullable(z.string())),
  versionNumber: z.optional(z.nullable(z.int())),
  publishedAt: z.optional(z.nullable(z.string())),
};

/**
 * Summary of a page's published version (spec 2.3). The spec gives only the types of the inner
 * fields, so each may be absent or `null` (an unpublished page has all three `null`).
 */
export const PublishedVersion = z.looseObject(publishedVersionShape);

/** Summary of a page's published version (spec 2.3). */
export type PublishedVersion = Exact<typeof publishedVersionShape>;

const pageShape = {
  pageId: OpaqueId,
  pageGroupId: OpaqueId,
  tenantId: OpaqueId,
  createdAt: z.iso.datetime({ offset: true }),
  effectiveName: z.string(),
  customName: z.nullable(z.string()),
  computedName: z.string(),
  supplementaryContext: z.nullable(z.string()),
  publishedVersion: PublishedVersion,
};

/** Response of "get page with published version" (spec 2.3). Forward-compatible: unknown fields are kept. */
export const Page = z.looseObject(pageShape);

/** A page with its published version (spec 2.3): exactly the spec's fields. */
export type Page = Omit<Exact<typeof pageShape>, "publishedVersion"> & { publishedVersion: PublishedVersion };
