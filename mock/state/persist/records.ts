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
import { OpaqueId, toFieldErrors } from "../../../src/schemas/index.js";
import { MockStateError } from "../../lib/errors.js";
import { SavedDeliverySchema, SavedEventSchema } from "../../webhooks/index.js";
import { COLLECTION_NAMES, COLLECTIONS, type CollectionName, perCollection, rowOf } from "../collections.js";
import { ApiKey } from "../inputs.js";
import type { StateChange } from "../journal.js";
import { TenantRecordSchema } from "../records.js";
import type { SavedState } from "./saved-state.js";

const WebhookChangeSchema = z.discriminatedUnion("kind", [
  z.extend(SavedEventSchema, { kind: z.literal("event") }),
  z.object({ kind: z.literal("delivery"), delivery: SavedDeliverySchema }),
  z.object({ kind: z.literal("forget-delivery"), sequence: z.int().check(z.gte(0)) }),
  z.object({ kind: z.literal("forget-events"), tenantId: z.nullable(OpaqueId), count: z.int().check(z.gte(0)) }),
  z.object({ kind: z.literal("failing"), tenantId: z.nullable(OpaqueId), subscriptionId: OpaqueId, since: z.nullable(z.number()) }),
  z.object({ kind: z.literal("forget-tenant"), tenantId: OpaqueId }),
]);

/** What one record of a saved state must be: a {@link StateChange} whose every field passes the API's schemas. */
export const StateRecordSchema = z.discriminatedUnion("op", [
  z.discriminatedUnion(
    "in",
    Object.values(
      perCollection((name) => z.object({ op: z.literal("put"), in: z.literal(name), tenantId: OpaqueId, value: COLLECTIONS[name].schema })),
    ) as unknown as [z.ZodMiniObject<{ op: z.ZodMiniLiteral<"put">; in: z.ZodMiniLiteral<CollectionName> }>],
  ),
  z.object({ op: z.literal("delete"), in: z.enum(COLLECTION_NAMES as [CollectionName, ...CollectionName[]]), tenantId: OpaqueId, id: OpaqueId }),
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

/** One record of a saved state: a change, or the header of a state written whole. */
export type StateRecord = StateChange | StateHeader;

/** A check of a record by its collection's schema: the row's own, or the same fields under a faster object parser. */
export type RecordChecks = Readonly<Record<CollectionName, { safeParse(value: unknown): { readonly success: boolean } }>>;

/** Each collection's schema, as the table holds it. */
export const ROW_CHECKS: RecordChecks = perCollection((name) => COLLECTIONS[name].schema);

/**
 * Checks one record of a saved state.
 * @param value - the record as `JSON.parse` gave it
 * @param checks - how a stored record is checked first (the server's reader compiles the rows' objects)
 * @returns the same value (never zod's copy: a payload keeps every key it had, an own `__proto__` too)
 * @throws {MockStateError} listing every failing field as a JSON Pointer into the record (never its value)
 */
export function parseStateRecord(value: unknown, checks: RecordChecks = ROW_CHECKS): StateRecord {
  // Most records store a record: checked by its collection's schema alone (what the union would pick).
  const { op, in: collection, tenantId, value: stored } = (value ?? {}) as { op?: unknown; in?: unknown; tenantId?: unknown; value?: unknown };
  if (op === "put" && typeof tenantId === "string" && tenantId !== "" && Object.hasOwn(COLLECTIONS, collection as string)) {
    if (checks[collection as CollectionName].safeParse(stored).success) return value as StateRecord;
  }
  const parsed = StateRecordSchema.safeParse(value);
  if (!parsed.success) throw new MockStateError("invalid record", toFieldErrors(parsed.error.issues, value));
  return value as StateRecord;
}

/** The records of a collection a saved state keeps (its row's `keep`). */
export function keptOf<C extends CollectionName>(collection: C, records: readonly object[]): readonly object[] {
  const keep = rowOf(collection).keep as ((record: object) => boolean) | undefined;
  return keep === undefined ? records : records.filter(keep);
}

/**
 * The records that rebuild `saved` from nothing, in an order a replay accepts (a record after the
 * tenant it belongs to and the records it names): the header that counts them, the tenants (the
 * first is the default one), the keys, how many secrets were drawn, each tenant's collections,
 * then the webhook events, deliveries and runs of failures. Only the records a collection's row
 * keeps are listed (an idempotency key whose request is still in flight is not).
 */
export function* stateRecords(saved: SavedState): Generator<StateRecord> {
  yield { op: "state", records: recordCount(saved) };
  for (const part of saved.tenants) yield { op: "tenant", value: part.tenant };
  for (const [key, tenantId] of saved.apiKeys) yield { op: "key", key, tenantId };
  if (saved.secretsIssued > 0) yield { op: "secrets", issued: saved.secretsIssued };
  for (const part of saved.tenants) {
    const tenantId = part.tenant.id;
    for (const collection of COLLECTION_NAMES) {
      for (const value of keptOf(collection, part[collection])) yield { op: "put", in: collection, tenantId, value };
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
    for (const collection of COLLECTION_NAMES) count += keptOf(collection, part[collection]).length;
  }
  return count;
}
