/**
 * `state.pageGroups`, `state.pages` and `state.pageVersions`: seed pages and drive their versions
 * through created → processed → published (each step emits its webhook event).
 * @module
 */
import type { Page } from "../../src/schemas/index.js";
import { PageGroupInput, PageInput, PageUpdateInput, PageVersionInput, ProcessInput, type TenantOption } from "./inputs.js";
import { createVersion, pageView, processVersion, publishVersion } from "./pages.js";
import type { PageGroupRecord, PageRecord, PageVersionRecord } from "./records.js";
import { readers, type Store, tenantFor, timestamp } from "./store.js";
import type { TenantData } from "./tenant-data.js";
import { existing, parseNew, parseOrThrow } from "./validate.js";

/** The computed name of a page whose versions were never processed, unless one is given. */
export const DEFAULT_COMPUTED_NAME = "Untitled page";

/** Page groups of a tenant. */
export interface PageGroupsApi {
  /** Creates a page group (`id` default `pagegroup_` + ULID). @throws {MockStateError} for a bad or taken ID */
  create(input?: PageGroupInput): PageGroupRecord;
  /** The page group with this ID, or undefined. */
  get(id: string, options?: TenantOption): PageGroupRecord | undefined;
  /** Every page group of the tenant, oldest first. */
  list(options?: TenantOption): PageGroupRecord[];
}

/** Pages of a tenant. */
export interface PagesApi {
  /**
   * Creates a page (`id` default `page_` + ULID; without `pageGroupId`, in a new group;
   * `computedName` default "Untitled page"; `customName` and `supplementaryContext` default null).
   * @throws {MockStateError} for an invalid field, a taken ID or an unknown page group
   */
  create(input?: PageInput): PageRecord;
  /** Changes a page's names or context. @throws {MockStateError} for an invalid field or an unknown page */
  update(id: string, changes: PageUpdateInput, options?: TenantOption): PageRecord;
  /** The page with this ID, or undefined. */
  get(id: string, options?: TenantOption): PageRecord | undefined;
  /** The page exactly as `GET /v0/page_groups/{page_group_id}/pages/{page_id}` answers it, or undefined. */
  view(id: string, options?: TenantOption): Page | undefined;
  /** Every page of the tenant (or of one group), oldest first. */
  list(options?: TenantOption & { readonly pageGroupId?: string }): PageRecord[];
}

/** Page versions: created, then processed (with a computed name), then published. */
export interface PageVersionsApi {
  /**
   * Adds the next version to a page (or the `versionNumber` given, above the page's latest) and
   * emits `page.version.created`.
   * @throws {MockStateError} for an unknown page, or a `versionNumber` not above the page's latest
   */
  create(input: PageVersionInput): PageVersionRecord;
  /**
   * Records a version's computed name (it becomes the page's) and emits `page.version.processed`.
   * @throws {MockStateError} for an unknown version or an invalid name
   */
  process(id: string, input: ProcessInput, options?: TenantOption): PageVersionRecord;
  /**
   * Publishes a processed version (it becomes the page's published version) and emits
   * `page.version.published`.
   * @throws {MockStateError} for an unknown or unprocessed version
   */
  publish(id: string, options?: TenantOption): PageVersionRecord;
  /** The version with this ID, or undefined. */
  get(id: string, options?: TenantOption): PageVersionRecord | undefined;
  /** The versions of a page, by version number. */
  list(input: TenantOption & { readonly pageId: string }): PageVersionRecord[];
}

function addGroup(store: Store, tenant: TenantData, id: string | undefined): PageGroupRecord {
  const group: PageGroupRecord = { id: id ?? store.newId("pagegroup"), tenantId: tenant.record.id, createdAt: timestamp(store) };
  tenant.pageGroups.set(group.id, group);
  return group;
}

function createPage(store: Store, input: unknown): PageRecord {
  const { parsed, tenant } = parseNew(store, PageInput, input, "a page", (t) => t.pages);
  if (parsed.pageGroupId !== undefined) existing(tenant.pageGroups, parsed.pageGroupId, "page group");
  const group = parsed.pageGroupId ?? addGroup(store, tenant, undefined).id;
  const page: PageRecord = {
    id: parsed.id ?? store.newId("page"),
    tenantId: tenant.record.id,
    pageGroupId: group,
    createdAt: timestamp(store),
    customName: parsed.customName ?? null,
    computedName: parsed.computedName ?? DEFAULT_COMPUTED_NAME,
    supplementaryContext: parsed.supplementaryContext ?? null,
    publishedVersionId: null,
    versionCount: 0,
  };
  tenant.pages.set(page.id, page);
  return { ...page };
}

/** Builds `state.pageGroups` over the current store. */
export function pageGroupsApi(current: () => Store): PageGroupsApi {
  return {
    create(input = {}) {
      const store = current();
      const { parsed, tenant } = parseNew(store, PageGroupInput, input, "a page group", (t) => t.pageGroups);
      return { ...addGroup(store, tenant, parsed.id) };
    },
    ...readers(current, (tenant) => tenant.pageGroups),
  };
}

/** Builds `state.pages` over the current store. */
export function pagesApi(current: () => Store): PagesApi {
  return {
    create: (input = {}) => createPage(current(), input),
    update(id, changes, options = {}) {
      const parsed = parseOrThrow(PageUpdateInput, changes, "a page change");
      const tenant = tenantFor(current(), options.tenantId);
      const page = existing(tenant.pages, id, "page");
      if (parsed.customName !== undefined) page.customName = parsed.customName;
      if (parsed.computedName !== undefined) page.computedName = parsed.computedName;
      if (parsed.supplementaryContext !== undefined) page.supplementaryContext = parsed.supplementaryContext;
      tenant.pages.set(page.id, page); // stored again: the journal hears of the change
      return { ...page };
    },
    get: readers(current, (tenant) => tenant.pages).get,
    view: (id, options = {}) => {
      const tenant = tenantFor(current(), options.tenantId);
      const page = tenant.pages.get(id);
      return page && pageView(tenant, page);
    },
    list(options = {}) {
      const tenant = tenantFor(current(), options.tenantId);
      const pages = options.pageGroupId === undefined ? tenant.pages.values() : tenant.pages.group(options.pageGroupId);
      return [...pages].map((page) => ({ ...page }));
    },
  };
}

/** Builds `state.pageVersions` over the current store. */
export function pageVersionsApi(current: () => Store): PageVersionsApi {
  const version = (id: string, options: TenantOption) => {
    const tenant = tenantFor(current(), options.tenantId);
    return { tenant, version: existing(tenant.pageVersions, id, "page version") };
  };
  return {
    create(input) {
      const store = current();
      const { parsed, tenant } = parseNew(store, PageVersionInput, input, "a page version", (t) => t.pageVersions);
      return { ...createVersion(store, tenant, existing(tenant.pages, parsed.pageId, "page"), parsed.id, parsed.versionNumber) };
    },
    process(id, input, options = {}) {
      const { computedName } = parseOrThrow(ProcessInput, input, "a processed page version");
      const found = version(id, options);
      processVersion(current(), found.tenant, found.version, computedName);
      return { ...found.version };
    },
    publish(id, options = {}) {
      const found = version(id, options);
      publishVersion(current(), found.tenant, found.version);
      return { ...found.version };
    },
    get: readers(current, (tenant) => tenant.pageVersions).get,
    list(input) {
      const tenant = tenantFor(current(), input.tenantId);
      return tenant.pageVersions.group(input.pageId).map((version) => ({ ...version }));
    },
  };
}
