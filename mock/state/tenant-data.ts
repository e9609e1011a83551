/**
 * Everything one tenant owns, each collection indexed by what the API looks it up by, so no
 * request ever scans a collection: the cost of a request does not grow with the stored data.
 * @module
 */

import type { ProspectLog } from "../../src/schemas/index.js";
import { IdRegisteredMap, type IdRegistry, JournaledMap } from "./id-registry.js";
import type { Journal, MapJournal, TenantCollection } from "./journal.js";
import type {
  PageGroupRecord,
  PageRecord,
  PageVersionRecord,
  ProspectLogRecord,
  ProspectRecord,
  TenantRecord,
  WebhookSubscriptionRecord,
} from "./records.js";

/** What a key remembers: the body's fingerprint and, once done, the response to replay. */
export interface IdempotencyEntry {
  readonly fingerprint: string;
  /** `null` while the first request with this key is still in flight. */
  result: ProspectLog | null;
  /** When the result was stored (epoch ms); the window starts here. */
  storedAtMs: number;
}

/** What one collection of a tenant tells the journal: each record as stored, each removal. */
function journalOf<V extends object>(journal: Journal, tenantId: string, collection: TenantCollection): MapJournal<V> {
  return {
    put: (_id, value) => journal({ op: "put", in: collection, tenantId, value }),
    delete: (id) => journal({ op: "delete", in: collection, tenantId, id }),
  };
}

/**
 * An empty tenant.
 * @param registry - where every record collection reports the IDs it stores (the store's ID factories reserve them)
 * @param journal - where every collection reports its writes
 */
export function createTenantData(record: TenantRecord, registry: IdRegistry, journal: Journal) {
  const tenantId = record.id;
  const records = <V extends object>(collection: TenantCollection) => new IdRegisteredMap<V>(registry, journalOf(journal, tenantId, collection));
  return {
    record,
    prospects: records<ProspectRecord>("prospects"),
    /** By lower-cased email. */
    prospectsByEmail: new Map<string, ProspectRecord>(),
    /** By exact phone number. */
    prospectsByPhone: new Map<string, ProspectRecord>(),
    /** By normalised LinkedIn profile URL. */
    prospectsByLinkedin: new Map<string, ProspectRecord>(),
    logs: records<ProspectLogRecord>("prospectLogs"),
    /** Log IDs of each prospect, oldest first: a lone ID is kept bare, not in a list (see {@link appendCompact}). */
    logsByProspect: new Map<string, string | string[]>(),
    /** By idempotency key; insertion order is (roughly) time order, which expiry relies on. */
    idempotency: new JournaledMap<IdempotencyEntry>({
      put: (key, entry) => journal({ op: "put", in: "idempotency", tenantId, value: { key, ...entry } }),
      delete: (key) => journal({ op: "delete", in: "idempotency", tenantId, id: key }),
    }),
    pageGroups: records<PageGroupRecord>("pageGroups"),
    /** Page IDs of each page group, oldest first. */
    pagesByGroup: new Map<string, string[]>(),
    pages: records<PageRecord>("pages"),
    pageVersions: records<PageVersionRecord>("pageVersions"),
    /** Version IDs of each page, by version number. */
    versionsByPage: new Map<string, string[]>(),
    subscriptions: records<WebhookSubscriptionRecord>("webhookSubscriptions"),
  } as const;
}

/** One tenant's data and its indexes. */
export type TenantData = ReturnType<typeof createTenantData>;

/**
 * Appends `value` under `key` in an index where most keys hold one value: a lone value is stored
 * bare and becomes a list on the second (no array per key for the common case: about 56 bytes
 * less per stored prospect log, whose prospect mostly has that one log).
 */
function appendCompact(index: Map<string, string | string[]>, key: string, value: string): void {
  const held = index.get(key);
  if (held === undefined) index.set(key, value);
  else if (typeof held === "string") index.set(key, [held, value]);
  else held.push(value);
}

/** The values under a key of an {@link appendCompact} index, oldest first. */
export function compactList(held: string | string[] | undefined): readonly string[] {
  return held === undefined ? [] : typeof held === "string" ? [held] : held;
}

/** Appends `value` to the list under `key`, creating the list on first use. */
function appendTo(index: Map<string, string[]>, key: string, value: string): void {
  const list = index.get(key);
  if (list) list.push(value);
  else index.set(key, [value]);
}

/** Stores a prospect log entry and indexes it under its prospect (a create request and a restored snapshot alike). */
export function storeLog(tenant: TenantData, log: ProspectLogRecord): void {
  tenant.logs.set(log.id, log);
  appendCompact(tenant.logsByProspect, log.prospectId, log.id);
}

/** Stores a page and indexes it under its page group. */
export function storePage(tenant: TenantData, page: PageRecord): void {
  tenant.pages.set(page.id, page);
  appendTo(tenant.pagesByGroup, page.pageGroupId, page.id);
}

/** Stores a page version and indexes it under its page (versions of a page are stored in version order). */
export function storeVersion(tenant: TenantData, version: PageVersionRecord): void {
  tenant.pageVersions.set(version.id, version);
  appendTo(tenant.versionsByPage, version.pageId, version.id);
}
