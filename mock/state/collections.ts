/**
 * The collections table: every collection a tenant owns is one row (its name, its records' schema,
 * the field it is keyed by, the records of other collections it names, and the lookups it keeps).
 * Everything that handles a tenant's records reads this table: the tenant's data
 * (`tenant-data.ts`), the snapshot and its restore, the saved formats, the reference checks and the
 * replay (`persist/`). Adding a collection is its schema and its row; nothing else lists them.
 * The rows' order is the order a snapshot lists them (and a saved state stores them).
 * @module
 */
import type * as z from "zod/mini";
import { DEFAULT_PROSPECT_LOG_TYPE } from "../../src/schemas/index.js";
import { normaliseLinkedinUrl } from "./linkedin.js";
import {
  type IdempotencyRecord,
  IdempotencyRecordSchema,
  type PageGroupRecord,
  PageGroupRecordSchema,
  type PageRecord,
  PageRecordSchema,
  type PageVersionRecord,
  PageVersionRecordSchema,
  type ProspectLogRecord,
  ProspectLogRecordSchema,
  type ProspectRecord,
  ProspectRecordSchema,
  type WebhookSubscriptionRecord,
  WebhookSubscriptionRecordSchema,
} from "./records.js";

/** A row of any collection (what a {@link CollectionRow} of any record type is). */
export interface AnyCollectionRow {
  readonly schema: z.ZodMiniObject;
  readonly key: string;
  readonly ids: boolean;
  readonly references: { readonly [field: string]: string | undefined };
  readonly lookups?: { readonly [field: string]: ((value: string) => string) | undefined };
  readonly groupBy?: string;
  readonly shared?: { readonly [field: string]: string | undefined };
  readonly keep?: (record: never) => boolean;
}

/** One collection of a tenant, as the table describes it. */
export interface CollectionRow<R extends object = object> {
  /** What a stored record must be: the one rule, whatever holds it (a request, a snapshot, a state file). */
  readonly schema: z.ZodMiniObject;
  /** The field a record is keyed by within its tenant. */
  readonly key: keyof R & string;
  /** Whether its keys are IDs the mock hands out (each stored one is reserved, so none is made twice). */
  readonly ids: boolean;
  /** Its fields that name a record of another collection of the same tenant, and that collection's name (`null` names none). */
  readonly references: { readonly [F in keyof R & string]?: string };
  /** Unique lookups: a field and how its value is matched (each value names at most one record). */
  readonly lookups?: { readonly [F in keyof R & string]?: (value: string) => string };
  /** The field its records are grouped by, each group oldest first (`group(value)`). */
  readonly groupBy?: keyof R & string;
  /** Values most of its records share, stored once when a state is loaded rather than once a record. */
  readonly shared?: { readonly [F in keyof R & string]?: string };
  /** Which of its records a saved state keeps (default: all). */
  readonly keep?: (record: R) => boolean;
  /** The phantom type of its records (never set). */
  readonly record?: R;
}

const row = <R extends object>(spec: Omit<CollectionRow<R>, "record">): CollectionRow<R> => spec;

/** The collections of a tenant. */
export const COLLECTIONS = {
  prospects: row<ProspectRecord>({
    schema: ProspectRecordSchema,
    key: "id",
    ids: true,
    references: {},
    lookups: { email: (value) => value.toLowerCase(), phoneNumber: (value) => value, linkedinProfileUrl: normaliseLinkedinUrl },
  }),
  prospectLogs: row<ProspectLogRecord>({
    schema: ProspectLogRecordSchema,
    key: "id",
    ids: true,
    references: { prospectId: "prospects" },
    groupBy: "prospectId",
    shared: { type: DEFAULT_PROSPECT_LOG_TYPE },
  }),
  // A key whose request was still in flight has no answer to replay: not saved, so a retry after a restart is free to run.
  idempotency: row<IdempotencyRecord>({
    schema: IdempotencyRecordSchema,
    key: "key",
    ids: false,
    references: {},
    keep: (entry) => entry.result !== null,
  }),
  pageGroups: row<PageGroupRecord>({ schema: PageGroupRecordSchema, key: "id", ids: true, references: {} }),
  pages: row<PageRecord>({
    schema: PageRecordSchema,
    key: "id",
    ids: true,
    references: { pageGroupId: "pageGroups", publishedVersionId: "pageVersions" },
    groupBy: "pageGroupId",
  }),
  pageVersions: row<PageVersionRecord>({ schema: PageVersionRecordSchema, key: "id", ids: true, references: { pageId: "pages" }, groupBy: "pageId" }),
  webhookSubscriptions: row<WebhookSubscriptionRecord>({ schema: WebhookSubscriptionRecordSchema, key: "id", ids: true, references: {} }),
} as const satisfies Record<string, AnyCollectionRow>;

/** The name of a collection of a tenant (as a snapshot, a state file and `api.state` name it). */
export type CollectionName = keyof typeof COLLECTIONS;

/** The names of the collections, in the table's order. */
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];

/** The record type of a collection. */
export type RecordOf<C extends CollectionName> = (typeof COLLECTIONS)[C] extends CollectionRow<infer R> ? R : never;

/** The key a record is stored under in its collection. */
export const keyOf = (collection: CollectionName, record: object): string => (record as Record<string, string>)[rowOf(collection).key]!;

/** A collection's row, as a row of any collection. */
export const rowOf = (collection: CollectionName): AnyCollectionRow => COLLECTIONS[collection];

/** One value for each collection, in the table's order. */
export function perCollection<T>(make: (name: CollectionName) => T): Record<CollectionName, T> {
  return Object.fromEntries(COLLECTION_NAMES.map((name) => [name, make(name)])) as Record<CollectionName, T>;
}
