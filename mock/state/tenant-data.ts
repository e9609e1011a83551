/**
 * Everything one tenant owns, each collection indexed by what the API looks it up by, so no
 * request ever scans a collection: the cost of a request does not grow with the stored data.
 * @module
 */
import type { IdempotencyEntry } from "./idempotency.js";
import type {
  PageGroupRecord,
  PageRecord,
  PageVersionRecord,
  ProspectLogRecord,
  ProspectRecord,
  TenantRecord,
  WebhookSubscriptionRecord,
} from "./records.js";

/** One tenant's data and its indexes. */
export interface TenantData {
  readonly record: TenantRecord;
  readonly prospects: Map<string, ProspectRecord>;
  /** By lower-cased email. */
  readonly prospectsByEmail: Map<string, ProspectRecord>;
  /** By exact phone number. */
  readonly prospectsByPhone: Map<string, ProspectRecord>;
  /** By normalised LinkedIn profile URL. */
  readonly prospectsByLinkedin: Map<string, ProspectRecord>;
  readonly logs: Map<string, ProspectLogRecord>;
  /** Log IDs of each prospect, oldest first. */
  readonly logsByProspect: Map<string, string[]>;
  /** By idempotency key; insertion order is (roughly) time order, which expiry relies on. */
  readonly idempotency: Map<string, IdempotencyEntry>;
  readonly pageGroups: Map<string, PageGroupRecord>;
  /** Page IDs of each page group, oldest first. */
  readonly pagesByGroup: Map<string, string[]>;
  readonly pages: Map<string, PageRecord>;
  readonly pageVersions: Map<string, PageVersionRecord>;
  /** Version IDs of each page, by version number. */
  readonly versionsByPage: Map<string, string[]>;
  readonly subscriptions: Map<string, WebhookSubscriptionRecord>;
}

/** An empty tenant. */
export function createTenantData(record: TenantRecord): TenantData {
  return {
    record,
    prospects: new Map(),
    prospectsByEmail: new Map(),
    prospectsByPhone: new Map(),
    prospectsByLinkedin: new Map(),
    logs: new Map(),
    logsByProspect: new Map(),
    idempotency: new Map(),
    pageGroups: new Map(),
    pagesByGroup: new Map(),
    pages: new Map(),
    pageVersions: new Map(),
    versionsByPage: new Map(),
    subscriptions: new Map(),
  };
}

/** Appends `value` to the list under `key`, creating the list on first use. */
export function appendTo(index: Map<string, string[]>, key: string, value: string): void {
  const list = index.get(key);
  if (list) list.push(value);
  else index.set(key, [value]);
}
