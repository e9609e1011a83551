/**
 * The one record codec of a saved state: a state is a sequence of {@link StateChange}s, one JSON
 * object each, replayed in order from nothing. A state file is exactly that, one record per line
 * (its compacted part: the records {@link stateRecords} lists; its journal: the changes made
 * since), so a state of any size is written and read one record at a time, never as one string.
 * Every record is validated with the API's own schemas ({@link parseStateRecord}): a stored
 * identifier, email, phone number, URL, timestamp or secret is one the API could have stored.
 * @module
 */
import * as z from "zod/mini";
import { OpaqueId, toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import { SavedDeliverySchema, SavedEventSchema } from "../webhooks/index.js";
import { ApiKey } from "./inputs.js";
import { type StateChange, TENANT_COLLECTIONS, type TenantCollection } from "./journal.js";
import { TenantRecordSchema } from "./records.js";
import type { SavedChange } from "./replay.js";
import { RECORD_SCHEMAS, type SavedState } from "./saved-state.js";

export { RECORD_SCHEMAS };

const put = <C extends TenantCollection>(collection: C) =>
  z.object({ op: z.literal("put"), in: z.literal(collection), tenantId: OpaqueId, value: RECORD_SCHEMAS[collection] });

const WebhookChangeSchema = z.discriminatedUnion("kind", [
  z.extend(SavedEventSchema, { kind: z.literal("event") }),
  z.object({ kind: z.literal("delivery"), delivery: SavedDeliverySchema }),
  z.object({ kind: z.literal("forget-delivery"), sequence: z.int().check(z.gte(0)) }),
  // Without `tenantId`: as a journal held them before each tenant kept its own webhook books (format 1).
  z.object({ kind: z.literal("forget-events"), tenantId: z.optional(z.nullable(OpaqueId)), count: z.int().check(z.gte(0)) }),
  z.object({ kind: z.literal("failing"), tenantId: z.optional(z.nullable(OpaqueId)), subscriptionId: OpaqueId, since: z.nullable(z.number()) }),
  z.object({ kind: z.literal("forget-tenant"), tenantId: OpaqueId }),
]);

/** What one record of a saved state must be: a {@link StateChange} whose every field passes the API's schemas. */
export const StateRecordSchema = z.discriminatedUnion("op", [
  z.discriminatedUnion("in", [
    put("prospects"),
    put("prospectLogs"),
    put("idempotency"),
    put("pageGroups"),
    put("pages"),
    put("pageVersions"),
    put("webhookSubscriptions"),
  ]),
  z.object({ op: z.literal("delete"), in: z.enum(TENANT_COLLECTIONS), tenantId: OpaqueId, id: OpaqueId }),
  z.object({ op: z.literal("tenant"), value: TenantRecordSchema }),
  z.object({ op: z.literal("key"), key: ApiKey, tenantId: z.nullable(OpaqueId) }),
  z.object({ op: z.literal("secrets"), issued: z.int().check(z.gte(0)) }),
  z.object({ op: z.literal("webhooks"), change: WebhookChangeSchema }),
  z.object({ op: z.literal("clear"), tenantId: OpaqueId }),
  z.object({ op: z.literal("delete-tenant"), tenantId: OpaqueId }),
  z.object({ op: z.literal("reset") }),
  z.object({ op: z.literal("state"), records: z.int().check(z.gte(0)) }),
]);

/**
 * The header of a saved state written whole (a compaction's first record): the `records` records
 * after it are a state's records, each stored record once, in order, so a reader appends them
 * without looking any up.
 */
export interface StateHeader {
  readonly op: "state";
  readonly records: number;
}

/** One record of a saved state: a change (a format-1 journal's webhook changes may lack their tenant), or the header of a state written whole. */
export type StateRecord = SavedChange | StateHeader;

/** A check of a record by its collection's schema: {@link RECORD_SCHEMAS}, or the same fields under a faster object parser. */
export type RecordChecks = Readonly<Record<TenantCollection, { safeParse(value: unknown): { readonly success: boolean } }>>;

/**
 * Checks one record of a saved state.
 * @param value - the record as `JSON.parse` gave it
 * @param checks - how a stored record is checked first (the server's reader compiles {@link RECORD_SCHEMAS}' objects)
 * @returns the same value (never zod's copy: a payload keeps every key it had, an own `__proto__` too)
 * @throws {MockStateError} listing every failing field as a JSON Pointer into the record (never its value)
 */
export function parseStateRecord(value: unknown, checks: RecordChecks = RECORD_SCHEMAS): StateRecord {
  // Most records store a record: checked by its collection's schema alone (what the union would pick).
  const { op, in: collection, tenantId, value: stored } = (value ?? {}) as { op?: unknown; in?: unknown; tenantId?: unknown; value?: unknown };
  if (op === "put" && typeof tenantId === "string" && tenantId !== "" && Object.hasOwn(RECORD_SCHEMAS, collection as string)) {
    if (checks[collection as TenantCollection].safeParse(stored).success) return value as StateRecord;
  }
  const parsed = StateRecordSchema.safeParse(value);
  if (!parsed.success) throw new MockStateError("invalid record", toFieldErrors(parsed.error.issues, value));
  return value as StateRecord;
}

/** Whether a record is kept in a saved state: an idempotency key whose request was still in flight has no answer to replay. */
const kept = (collection: TenantCollection, value: object) => collection !== "idempotency" || (value as { result: unknown }).result !== null;

/**
 * The records that rebuild `saved` from nothing, in an order a replay accepts (a record after the
 * tenant it belongs to and the records it names): the header that counts them, the tenants (the
 * first is the default one), the keys, how many secrets were drawn, each tenant's collections,
 * then the webhook events, deliveries and runs of failures. An idempotency key whose request was
 * still in flight is left out: it has no answer to replay, and a retry after a restart must be
 * free to run.
 */
export function* stateRecords(saved: SavedState): Generator<StateRecord> {
  yield { op: "state", records: recordCount(saved) };
  for (const part of saved.tenants) yield { op: "tenant", value: part.tenant };
  for (const [key, tenantId] of saved.apiKeys) yield { op: "key", key, tenantId };
  if (saved.secretsIssued > 0) yield { op: "secrets", issued: saved.secretsIssued };
  for (const part of saved.tenants) {
    const tenantId = part.tenant.id;
    for (const collection of TENANT_COLLECTIONS) {
      for (const value of part[collection] as readonly object[]) if (kept(collection, value)) yield { op: "put", in: collection, tenantId, value };
    }
  }
  for (const { tenantId, event } of saved.webhooks.events) yield { op: "webhooks", change: { kind: "event", tenantId, event } };
  for (const delivery of saved.webhooks.deliveries) yield { op: "webhooks", change: { kind: "delivery", delivery } };
  for (const [tenantId, subscriptionId, since] of saved.webhooks.failingSince) {
    yield { op: "webhooks", change: { kind: "failing", tenantId, subscriptionId, since } };
  }
}

/** How many records {@link stateRecords} lists for `saved` after its header. */
export function recordCount(saved: SavedState): number {
  let count = saved.apiKeys.length + (saved.secretsIssued > 0 ? 1 : 0) + saved.webhooks.events.length + saved.webhooks.deliveries.length;
  count += saved.webhooks.failingSince.length;
  for (const part of saved.tenants) {
    count += 1;
    for (const collection of TENANT_COLLECTIONS) {
      const list = part[collection] as readonly object[];
      count += collection === "idempotency" ? list.filter((value) => kept(collection, value)).length : list.length;
    }
  }
  return count;
}
