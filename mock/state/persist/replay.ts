/**
 * A saved state replayed: its records applied in order, from nothing, every collection keyed so
 * each change is a lookup (or, while a state written whole is read, its records appended as they
 * come). What a replay ends with is a {@link SavedState} whose references are then checked
 * (`danglingReference`) before it is loaded.
 * @module
 */
import { MockStateError } from "../../lib/errors.js";
import { applyWebhookChange, clearWebhookReplay, endWebhookReplay, startWebhookReplay, type WebhookReplay } from "../../webhooks/index.js";
import { COLLECTION_NAMES, type CollectionName, keyOf, perCollection } from "../collections.js";
import type { StateChange } from "../journal.js";
import type { TenantRecord } from "../records.js";
import { keptOf } from "./records.js";
import { keyCountsOf, type SavedState, type TenantSnapshot } from "./saved-state.js";

/**
 * One tenant being replayed: each collection keyed, so each change is a lookup; or, while a state
 * written whole is read (every record once, in order), its records appended as they come, keyed
 * only when a change needs a lookup.
 */
interface ReplayTenant {
  readonly tenant: TenantRecord;
  readonly records: Record<CollectionName, Map<string, object>>;
  readonly appended: Record<CollectionName, object[]>;
}

/** A saved state being replayed. */
export interface Replay {
  defaultTenantId: string | null;
  secretsIssued: number;
  /** How many more records belong to a state written whole (appended without a lookup). */
  appendLeft: number;
  readonly apiKeys: Map<string, string>;
  /** Each tenant's keys (so a deleted tenant's are dropped without a scan of every key). */
  readonly keysOf: Map<string, Set<string>>;
  readonly tenants: Map<string, ReplayTenant>;
  readonly webhooks: WebhookReplay;
}

function emptyTenant(tenant: TenantRecord): ReplayTenant {
  return {
    tenant,
    records: perCollection(() => new Map<string, object>()),
    appended: perCollection(() => []),
  };
}

/** A tenant's collections keyed (the records appended so far moved in, in order), for a change that looks one up. */
function keyed(tenant: ReplayTenant): ReplayTenant["records"] {
  for (const name of COLLECTION_NAMES) {
    const list = tenant.appended[name];
    if (list.length === 0) continue;
    for (const value of list) tenant.records[name].set(keyOf(name, value), value);
    list.length = 0;
  }
  return tenant.records;
}

/**
 * Reads the next `records` records as a state written whole (a compaction's): each is appended,
 * not looked up; a record stored twice among them is refused when the state is loaded.
 * @throws {MockStateError} when the replay holds anything already (the header comes first)
 */
export function expectWholeState(replay: Replay, records: number): void {
  if (replay.tenants.size > 0 || replay.apiKeys.size > 0) throw new MockStateError("a saved state's header after its first record");
  replay.appendLeft = records;
}

/** Gives a key to a tenant (or revokes it: `null`), keeping each tenant's keys beside. */
function setKey(replay: Replay, key: string, tenantId: string | null): void {
  const before = replay.apiKeys.get(key);
  if (before !== undefined) {
    const keys = replay.keysOf.get(before)!;
    keys.delete(key);
    if (keys.size === 0) replay.keysOf.delete(before);
  }
  if (tenantId === null) {
    replay.apiKeys.delete(key);
    return;
  }
  replay.apiKeys.set(key, tenantId);
  const keys = replay.keysOf.get(tenantId);
  if (keys === undefined) replay.keysOf.set(tenantId, new Set([key]));
  else keys.add(key);
}

/** Starts a replay from nothing. */
export function startReplay(): Replay {
  return {
    defaultTenantId: null,
    secretsIssued: 0,
    appendLeft: 0,
    apiKeys: new Map(),
    keysOf: new Map(),
    tenants: new Map(),
    webhooks: startWebhookReplay(),
  };
}

/** The refusal of a change to a tenant the state does not hold (named by its pointer, never its value). */
const noSuchTenant = () =>
  new MockStateError("a change to a tenant that does not exist", [
    { pointer: "/tenantId", code: "unknown_reference", detail: "names no tenant of the state" },
  ]);

/**
 * Applies one record to a replay, in the order the changes happened (so every collection keeps
 * the order the live one had).
 * @param change - a record `parseStateRecord` accepted
 * @throws {MockStateError} for a change to a tenant the replay does not have
 */
export function applyChange(replay: Replay, change: StateChange): void {
  const appending = replay.appendLeft > 0;
  if (appending) replay.appendLeft -= 1;
  switch (change.op) {
    case "put":
    case "delete": {
      const tenant = replay.tenants.get(change.tenantId);
      if (tenant === undefined) throw noSuchTenant();
      if (change.op === "put" && appending) tenant.appended[change.in].push(change.value);
      else if (change.op === "delete") keyed(tenant)[change.in].delete(change.id);
      else keyed(tenant)[change.in].set(keyOf(change.in, change.value), change.value);
      break;
    }
    case "tenant":
      if (!replay.tenants.has(change.value.id)) replay.tenants.set(change.value.id, emptyTenant(change.value));
      replay.defaultTenantId ??= change.value.id;
      break;
    case "key":
      setKey(replay, change.key, change.tenantId);
      break;
    case "secrets":
      replay.secretsIssued = Math.max(replay.secretsIssued, change.issued);
      break;
    case "webhooks":
      applyWebhookChange(replay.webhooks, change.change);
      break;
    case "clear": {
      const tenant = replay.tenants.get(change.tenantId);
      if (tenant === undefined) throw noSuchTenant();
      for (const name of COLLECTION_NAMES) {
        tenant.records[name].clear();
        tenant.appended[name].length = 0;
      }
      break;
    }
    case "delete-tenant": {
      // An isolated tenant's end: its keys were revoked before it (each by its own record); any left go with it.
      if (!replay.tenants.delete(change.tenantId)) throw noSuchTenant();
      for (const key of replay.keysOf.get(change.tenantId) ?? []) replay.apiKeys.delete(key);
      replay.keysOf.delete(change.tenantId);
      applyWebhookChange(replay.webhooks, { kind: "forget-tenant", tenantId: change.tenantId });
      if (replay.defaultTenantId === change.tenantId) replay.defaultTenantId = replay.tenants.keys().next().value ?? null;
      break;
    }
    case "reset":
      replay.defaultTenantId = null;
      replay.apiKeys.clear();
      replay.keysOf.clear();
      replay.tenants.clear();
      clearWebhookReplay(replay.webhooks);
      break;
  }
}

/**
 * The saved state a replay ends with; its records are those the replay was given (each already
 * validated), its references not yet checked (see `danglingReference`). Only the records each
 * collection's row keeps are in it (an idempotency key whose request was still in flight when it
 * was written has no answer to replay: a retry after a restart is free to run).
 */
export function endReplay(replay: Replay): SavedState {
  const keyCounts = keyCountsOf(replay.apiKeys.values());
  const tenants = [...replay.tenants.values()].map(({ tenant, records, appended }) => {
    const part: Record<string, unknown> = { tenant, apiKeyCount: keyCounts.get(tenant.id) ?? 0 };
    for (const name of COLLECTION_NAMES) part[name] = keptOf(name, appended[name].length > 0 ? appended[name] : [...records[name].values()]);
    return part as TenantSnapshot;
  });
  return {
    defaultTenantId: replay.defaultTenantId,
    secretsIssued: replay.secretsIssued,
    apiKeys: [...replay.apiKeys],
    tenants,
    webhooks: endWebhookReplay(replay.webhooks),
  };
}
