/**
 * Page groups, pages and page versions: how they are stored, how a page is shown by
 * `GET /v0/page_groups/{page_group_id}/pages/{page_id}`, and the version life cycle
 * (created → processed → published) with its webhook events.
 * @module
 */
import type { Page } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import type { PageRecord, PageVersionRecord } from "./records.js";
import { type Store, timestamp } from "./store.js";
import type { TenantData } from "./tenant-data.js";

/**
 * The name in effect: the custom name when it is set and not blank after trimming, else the
 * computed name (docs/behaviour.md, "effectiveName").
 */
export function effectiveName(page: Pick<PageRecord, "customName" | "computedName">): string {
  return page.customName !== null && page.customName.trim() !== "" ? page.customName : page.computedName;
}

/**
 * A page as the API returns it. Never published: `publishedVersion` has three `null`s;
 * otherwise it describes the version published last.
 */
export function pageView(tenant: TenantData, page: PageRecord): Page {
  const published = page.publishedVersionId === null ? undefined : tenant.pageVersions.get(page.publishedVersionId);
  return {
    pageId: page.id,
    pageGroupId: page.pageGroupId,
    tenantId: page.tenantId,
    createdAt: page.createdAt,
    effectiveName: effectiveName(page),
    customName: page.customName,
    computedName: page.computedName,
    supplementaryContext: page.supplementaryContext,
    publishedVersion: {
      versionId: published?.id ?? null,
      versionNumber: published?.versionNumber ?? null,
      publishedAt: published?.publishedAt ?? null,
    },
  };
}

/** The page `pageId` of group `pageGroupId`, or undefined (also when the page is in another group). */
export function findPage(tenant: TenantData, pageGroupId: string, pageId: string): PageRecord | undefined {
  const page = tenant.pages.get(pageId);
  return page?.pageGroupId === pageGroupId ? page : undefined;
}

/** Stores a page and its version again after a change in place: the journal hears of both. */
function saveBoth(tenant: TenantData, page: PageRecord, version: PageVersionRecord): void {
  tenant.pages.set(page.id, page);
  tenant.pageVersions.set(version.id, version);
}

function versionData(page: PageRecord, version: PageVersionRecord) {
  return { pageGroupId: page.pageGroupId, pageId: page.id, versionId: version.id, versionNumber: version.versionNumber };
}

/**
 * Adds version `number` (default `versionCount + 1`) to a page and emits `page.version.created`.
 * @throws {MockStateError} for a number not above the page's latest
 */
export function createVersion(store: Store, tenant: TenantData, page: PageRecord, id: string | undefined, number?: number): PageVersionRecord {
  if (number !== undefined && number <= page.versionCount) {
    throw new MockStateError("refused to store a page version", [
      { pointer: "/versionNumber", code: "too_small", detail: `must be above the page's latest version number, ${page.versionCount}` },
    ]);
  }
  const versionNumber = number ?? page.versionCount + 1;
  const version: PageVersionRecord = {
    id: id ?? store.newId("pageversion"),
    tenantId: tenant.record.id,
    pageId: page.id,
    versionNumber,
    createdAt: timestamp(store),
    status: "created",
    computedName: null,
    processedAt: null,
    publishedAt: null,
  };
  page.versionCount = versionNumber;
  tenant.pages.set(page.id, page); // stored again: the journal hears of the change
  tenant.pageVersions.set(version.id, version);
  store.emit(tenant, "page.version.created", { ...versionData(page, version), createdAt: version.createdAt });
  return version;
}

/**
 * Records the AI's result for a version: its computed name, which becomes the page's computed
 * name. Emits `page.version.processed`. A version may be processed again (a re-run).
 */
export function processVersion(store: Store, tenant: TenantData, version: PageVersionRecord, computedName: string): void {
  const page = tenant.pages.get(version.pageId)!;
  version.computedName = computedName;
  version.processedAt = timestamp(store);
  if (version.status === "created") version.status = "processed";
  page.computedName = computedName;
  saveBoth(tenant, page, version);
  store.emit(tenant, "page.version.processed", { ...versionData(page, version), computedName, processedAt: version.processedAt });
}

/**
 * Publishes a processed version: it becomes the page's published version (publishing an older
 * version again is a rollback). Emits `page.version.published`.
 * @throws {MockStateError} when the version was never processed
 */
export function publishVersion(store: Store, tenant: TenantData, version: PageVersionRecord): void {
  if (version.status === "created") {
    throw new MockStateError(`refused to publish page version ${JSON.stringify(version.id)}: it was never processed`);
  }
  const page = tenant.pages.get(version.pageId)!;
  version.status = "published";
  version.publishedAt = timestamp(store);
  page.publishedVersionId = version.id;
  saveBoth(tenant, page, version);
  store.emit(tenant, "page.version.published", { ...versionData(page, version), publishedAt: version.publishedAt });
}
