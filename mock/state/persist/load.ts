/**
 * A saved state put back into a store: a snapshot restored into the tenants a mock has
 * (`api.state.restore`), or a whole state loaded in place (a state file at start, or read back
 * after a failed write). Each record is stored through its tenant's collections, as a write
 * stores it; nothing is restored unless all of it is valid.
 * @module
 */
import { toFieldErrors } from "../../../src/schemas/index.js";
import { MockStateError } from "../../lib/errors.js";
import type { Collection } from "../collection.js";
import { COLLECTION_NAMES, keyOf, rowOf } from "../collections.js";
import type { Journal } from "../journal.js";
import type { Store } from "../store.js";
import { createTenantData, type TenantData } from "../tenant-data.js";
import { replaceTenantData } from "../tenants.js";
import { danglingReference } from "./references.js";
import { keyCountsOf, type SavedState, type StateSnapshot, StateSnapshotSchema, type TenantSnapshot } from "./saved-state.js";

/**
 * A tenant's data rebuilt from its saved part. The strings a live write shares are shared again
 * (the tenant's ID, each reference's key, a creation time equal to the referenced record's, the
 * values its row says most records hold), so a loaded state takes no more memory than a live one.
 * @param journal - where its records are reported as they are stored (default: the store's)
 */
function rebuild(store: Store, saved: TenantSnapshot, journal: Journal = store.journal): TenantData {
  const tenant = createTenantData(saved.tenant, store.registerId, journal);
  const tenantId = tenant.record.id;
  for (const name of COLLECTION_NAMES) {
    const { schema, references, shared = {} } = rowOf(name);
    const owned = "tenantId" in schema.shape;
    const into = tenant[name] as Collection<object>;
    const named = Object.entries(references);
    const common = Object.entries(shared);
    for (const record of saved[name] as readonly Record<string, unknown>[]) {
      if (owned) record["tenantId"] = tenantId;
      for (const [field, target] of named) {
        const other = (tenant[target as typeof name] as Collection<object>).get(record[field] as string) as Record<string, unknown> | undefined;
        if (other === undefined) continue;
        record[field] = keyOf(target as typeof name, other);
        if (record["createdAt"] === other["createdAt"]) record["createdAt"] = other["createdAt"];
      }
      for (const [field, value] of common) if (record[field] === value) record[field] = value;
      into.set(keyOf(name, record), record);
    }
  }
  return tenant;
}

/**
 * A value checked whole by the snapshot's schema, then its references: the value as given, never
 * zod's copy (a payload keeps every key it had, an own `__proto__` too).
 * @throws {MockStateError} naming the first failing field
 */
function checkedSnapshot(value: unknown, refused: string): StateSnapshot {
  const parsed = StateSnapshotSchema.safeParse(value);
  if (!parsed.success) throw new MockStateError(refused, toFieldErrors(parsed.error.issues, value));
  const dangling = danglingReference(value as StateSnapshot);
  if (dangling !== undefined) throw new MockStateError(refused, [{ pointer: dangling.pointer, code: "unknown_reference", detail: dangling.detail }]);
  return value as StateSnapshot;
}

/**
 * Replaces every tenant's data with a snapshot's (`api.state.restore`): each tenant's data cleared
 * and stored again, as a tenant's reset does (a state file journals it so). The snapshot must
 * hold the store's own tenants, each with as many keys (keys are never in a snapshot: they stay
 * the store's); nothing changes unless the whole snapshot is valid.
 * @param text - a snapshot of a mock created with the same tenants and keys
 * @throws {MockStateError} for text that is not such a snapshot
 */
export function restoreStore(store: Store, text: string): void {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new MockStateError("refused to restore the state: the snapshot is not JSON");
  }
  const snapshot = checkedSnapshot(raw, "refused to restore the state");
  const keyCounts = keyCountsOf(store.apiKeys.values());
  const own = [...store.tenants.keys()].map((id) => `${id}:${keyCounts.get(id) ?? 0}`);
  const saved = snapshot.tenants.map(({ tenant, apiKeyCount }) => `${tenant.id}:${apiKeyCount}`);
  if (own.join("\n") !== saved.join("\n") || snapshot.defaultTenantId !== store.defaultTenantId) {
    throw new MockStateError("refused to restore the state: the snapshot holds other tenants or API keys than this mock");
  }
  const rebuilt = snapshot.tenants.map((part) => rebuild(store, part, () => undefined));
  for (const tenant of rebuilt) replaceTenantData(store, tenant.record.id, tenant);
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

/** Every ID a saved state holds that the store's factories hand out (keys, tenants, the records of every collection of IDs). */
function* storedIds(state: SavedState): Generator<string> {
  for (const [key] of state.apiKeys) yield key;
  for (const part of state.tenants) {
    yield part.tenant.id;
    for (const name of COLLECTION_NAMES) if (rowOf(name).ids) for (const record of part[name]) yield keyOf(name, record);
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
    const twice = COLLECTION_NAMES.find((name) => tenant[name].size !== part[name].length);
    if (twice !== undefined) {
      throw new MockStateError("invalid state", [{ pointer: `/tenants/${t}/${twice}`, code: "duplicate", detail: "holds a record twice" }]);
    }
  }
  for (const [key, tenantId] of state.apiKeys) store.apiKeys.set(key, tenantId);
  store.defaultTenantId = state.defaultTenantId;
}
