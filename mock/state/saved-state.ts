/**
 * The whole state as a state file keeps it (`--state`): a snapshot's tenants (`snapshot.ts`) plus
 * what a restart needs and a snapshot leaves out: the API keys themselves, how many secrets were
 * drawn, and the webhook events and deliveries. And the way back: records (`state-records.ts`)
 * replayed in order (`replay.ts`), the result's references checked here before it replaces a
 * store's contents. Nothing is loaded unless all of it is valid.
 * @module
 */
import * as z from "zod/mini";
import { OpaqueId, toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import { type SavedWebhooks, type SavedWebhooksLine, SavedWebhooksLineSchema } from "../webhooks/index.js";
import { ApiKey } from "./inputs.js";
import { TENANT_COLLECTIONS, type TenantCollection } from "./journal.js";
import { rebuild, snapshotTenants, type TenantSnapshot, TenantSnapshotSchema } from "./snapshot.js";
import type { Store } from "./store.js";

/**
 * What a format-1 state file's state line must be: a {@link SavedState}, whose runs of webhook
 * failures may also be in the form before each tenant kept its own (`[subscriptionId, since]`).
 */
export const SavedStateSchema = z.object({
  defaultTenantId: z.nullable(OpaqueId),
  secretsIssued: z.int().check(z.gte(0)),
  apiKeys: z.array(z.tuple([ApiKey, OpaqueId])),
  tenants: z.array(TenantSnapshotSchema),
  webhooks: SavedWebhooksLineSchema,
});

/** The whole state of a mock, API keys and webhook deliveries included (never shown: it holds keys and secrets). */
export interface SavedState {
  readonly defaultTenantId: string | null;
  readonly secretsIssued: number;
  /** Each key and its tenant. */
  readonly apiKeys: readonly (readonly [key: string, tenantId: string])[];
  readonly tenants: readonly TenantSnapshot[];
  readonly webhooks: SavedWebhooks;
}

/** A saved state as a format-1 state line holds it (what {@link SavedStateSchema} accepts): runs of failures in either form. */
export type SavedStateLine = Omit<SavedState, "webhooks"> & { readonly webhooks: SavedWebhooksLine };

const COLLECTIONS = TENANT_COLLECTIONS;

/**
 * The whole state of a store and its webhook deliveries, as live records (serialize it at once).
 * @param webhooks - the dispatcher's saved state
 */
export function saveStore(store: Store, webhooks: SavedWebhooks): SavedState {
  return {
    defaultTenantId: store.defaultTenantId,
    secretsIssued: store.secretsIssued,
    apiKeys: [...store.apiKeys],
    tenants: snapshotTenants(store),
    webhooks,
  };
}

/** A reference of a saved state that points nowhere: where it is, and the record that holds it. */
export interface DanglingReference {
  /** A JSON Pointer into the saved state, e.g. `/tenants/0/pages/1/pageGroupId`. */
  readonly pointer: string;
  readonly detail: string;
  /** The record holding it (absent for the state's own fields): its tenant, collection, ID and the field. */
  readonly record?: { readonly tenantId: string; readonly collection: TenantCollection; readonly id: string; readonly field: string };
}

/** The first reference of a saved state that points nowhere, or undefined. */
export function danglingReference(state: Omit<SavedState, "webhooks">): DanglingReference | undefined {
  const tenantIds = new Set(state.tenants.map(({ tenant }) => tenant.id));
  if (state.defaultTenantId !== (state.tenants[0]?.tenant.id ?? null)) return { pointer: "/defaultTenantId", detail: "is not the first tenant" };
  for (const [index, [, tenantId]] of state.apiKeys.entries()) {
    if (!tenantIds.has(tenantId)) return { pointer: `/apiKeys/${index}/1`, detail: "names no tenant of the state" };
  }
  for (const [t, part] of state.tenants.entries()) {
    const id = part.tenant.id;
    const ids = (list: readonly { id: string }[]) => new Set(list.map((record) => record.id));
    const found = (collection: TenantCollection, i: number, field: string, detail: string): DanglingReference => ({
      pointer: `/tenants/${t}/${collection}/${i}/${field}`,
      detail,
      record: { tenantId: id, collection, id: (part[collection][i] as { id: string }).id, field },
    });
    for (const name of COLLECTIONS) {
      if (name === "idempotency") continue;
      const list = part[name] as readonly { tenantId: string }[];
      const i = list.findIndex((record) => record.tenantId !== id);
      if (i !== -1) return found(name, i, "tenantId", "is not the tenant it is stored under");
    }
    const checks: [TenantCollection, readonly Record<string, unknown>[], string, ReadonlySet<string>][] = [
      ["prospectLogs", part.prospectLogs, "prospectId", ids(part.prospects)],
      ["pages", part.pages, "pageGroupId", ids(part.pageGroups)],
      ["pageVersions", part.pageVersions, "pageId", ids(part.pages)],
    ];
    for (const [name, list, field, known] of checks) {
      const i = list.findIndex((record) => !known.has(record[field] as string));
      if (i !== -1) return found(name, i, field, "names no record of the tenant");
    }
    const versions = ids(part.pageVersions);
    const i = part.pages.findIndex((page) => page.publishedVersionId !== null && !versions.has(page.publishedVersionId));
    if (i !== -1) return found("pages", i, "publishedVersionId", "names no version of the tenant");
  }
  return undefined;
}

/**
 * Validates a format-1 state line whole: every record as the API would have stored it, and every
 * reference (a log's prospect, a page's group, a version's page, a key's tenant) to a record of it.
 * A run of failures saved without its tenant is given one when the replay it starts ends (`replay.ts`).
 * @throws {MockStateError} naming the first failing field
 */
export function parseSavedState(value: unknown): SavedStateLine {
  const parsed = SavedStateSchema.safeParse(value);
  if (!parsed.success) throw new MockStateError("invalid state", toFieldErrors(parsed.error.issues, value));
  // The records as given, not zod's copies: a payload keeps every key it had (an own `__proto__` too).
  const state = value as SavedStateLine;
  const dangling = danglingReference(state);
  if (dangling !== undefined)
    throw new MockStateError("invalid state", [{ pointer: dangling.pointer, code: "unknown_reference", detail: dangling.detail }]);
  return state;
}

/** The greatest of some IDs by their ULID part (the part after the prefix), or null. */
function latest(ids: Iterable<string>): string | null {
  let best: string | null = null;
  let bestPart = "";
  for (const id of ids) {
    const part = id.slice(id.indexOf("_") + 1);
    if (part > bestPart) {
      best = id;
      bestPart = part;
    }
  }
  return best;
}

function* storedIds(state: SavedState): Generator<string> {
  for (const [key] of state.apiKeys) yield key;
  for (const part of state.tenants) {
    yield part.tenant.id;
    for (const name of COLLECTIONS) if (name !== "idempotency") for (const record of part[name] as readonly { id: string }[]) yield record.id;
  }
}

/**
 * Replaces a store's whole contents with a validated saved state (tenants, keys, records), and
 * moves its ID factories and secret stream past what the state holds, so nothing is made twice.
 * Every record stored reaches the store's journal: load before anyone listens. The webhook part
 * is the dispatcher's to restore.
 * @throws {MockStateError} for a collection that holds one record twice (the store is then half loaded: drop it)
 */
export function loadStore(store: Store, state: SavedState): void {
  store.resume({
    resourceId: latest(storedIds(state)),
    eventId: latest(state.webhooks.events.map(({ event }) => event.id)),
    secretsIssued: state.secretsIssued,
  });
  store.tenants.clear();
  store.apiKeys.clear();
  for (const [t, part] of state.tenants.entries()) {
    const tenant = rebuild(store, part);
    store.tenants.set(part.tenant.id, tenant);
    // A record stored twice (only a file edited by hand can hold one) is caught here, where it costs nothing.
    const sizes: [TenantCollection, number][] = [
      ["prospects", tenant.prospects.size],
      ["prospectLogs", tenant.logs.size],
      ["idempotency", tenant.idempotency.size],
      ["pageGroups", tenant.pageGroups.size],
      ["pages", tenant.pages.size],
      ["pageVersions", tenant.pageVersions.size],
      ["webhookSubscriptions", tenant.subscriptions.size],
    ];
    const twice = sizes.find(([name, size]) => size !== part[name].length);
    if (twice !== undefined) {
      throw new MockStateError("invalid state", [{ pointer: `/tenants/${t}/${twice[0]}`, code: "duplicate", detail: "holds a record twice" }]);
    }
  }
  for (const [key, tenantId] of state.apiKeys) store.apiKeys.set(key, tenantId);
  store.defaultTenantId = state.defaultTenantId;
}
