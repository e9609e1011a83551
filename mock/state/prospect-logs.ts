/**
 * Creating a prospect log entry: the one implementation behind both `POST /v0/prospect_logs` and
 * `state.prospectLogs.create`, with its idempotency keys (docs/behaviour.md, "Idempotency":
 * scoped to (tenant, key), kept 24 hours, compared by a fingerprint of the body after defaults).
 * Validation and the idempotency claim happen first and write nothing; only `write` writes, and
 * it cannot fail on input.
 * @module
 */
import { type FieldError, type ProspectLog, ProspectLogCreate, type ProspectLogCreateParsed, toFieldErrors } from "../../src/schemas/index.js";
import { fingerprint } from "../lib/canonical-json.js";
import { formatTimestamp } from "../lib/clock.js";
import { insertProspect, resolveProspect } from "./prospects.js";
import type { IdempotencyRecord, ProspectLogRecord } from "./records.js";
import type { Store } from "./store.js";
import type { TenantData } from "./tenant-data.js";

/** How long a key is remembered after its request completed: 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Why a create request is answered without a write: invalid, or settled by its idempotency key. */
export type ProspectLogRefusal =
  | { kind: "invalid"; errors: FieldError[] }
  | { kind: "replay"; result: ProspectLog }
  | { kind: "in-progress" }
  | { kind: "reused" };

/**
 * A create request validated and cleared to write, its idempotency key (if any) claimed: a
 * concurrent request with the same key gets 409 until `release`. Call `write` once, then
 * `release` (in a `finally`): a key whose request ended without writing is freed for a retry.
 */
export interface ClaimedProspectLog {
  readonly kind: "claimed";
  write(): ProspectLog;
  release(): void;
}

/** A request settled by its idempotency key alone. */
type KeySettled = Exclude<ProspectLogRefusal, { kind: "invalid" }>;

function expired(entry: IdempotencyRecord, nowMs: number): boolean {
  return entry.result !== null && nowMs - entry.storedAtMs >= IDEMPOTENCY_WINDOW_MS;
}

/**
 * What a request with `key` and body `fingerprint` gets: the stored response, 409 (the first
 * request is still in flight, same body), 422 (a different body), or a fresh entry, reserved (in
 * flight) before this returns. Expired keys are forgotten first, from the oldest end, stopping at
 * the first live one: each key is removed once, so the cost per request stays constant.
 */
function claimKey(tenant: TenantData, key: string, fingerprint: string, nowMs: number): KeySettled | IdempotencyRecord {
  for (const [stored, entry] of tenant.idempotency) {
    if (!expired(entry, nowMs)) break;
    tenant.idempotency.delete(stored);
  }
  const entry = tenant.idempotency.get(key);
  if (entry !== undefined && !expired(entry, nowMs)) {
    if (entry.fingerprint !== fingerprint) return { kind: "reused" };
    return entry.result === null ? { kind: "in-progress" } : { kind: "replay", result: entry.result };
  }
  const fresh: IdempotencyRecord = { key, fingerprint, result: null, storedAtMs: nowMs };
  tenant.idempotency.delete(key); // an expired entry moves to the young end
  tenant.idempotency.set(key, fresh);
  return fresh;
}

function writeLog(store: Store, tenant: TenantData, request: ProspectLogCreateParsed): ProspectLog {
  const nowMs = store.nowMs();
  const createdAt = formatTimestamp(nowMs);
  const { prospect, created } = resolveProspect(tenant, request, (id) => insertProspect(tenant, id ?? store.newId("prospect", nowMs), createdAt));
  const log: ProspectLogRecord = {
    id: store.newId("prospectlog", nowMs),
    tenantId: tenant.record.id,
    prospectId: prospect.id,
    source: request.source,
    type: request.type,
    payload: request.payload,
    createdAt,
    createdProspect: created,
    idempotencyKey: request.idempotencyKey ?? null,
  };
  tenant.prospectLogs.set(log.id, log);
  return {
    prospectId: log.prospectId,
    prospectLogId: log.id,
    createdAt,
    createdProspect: created,
    source: log.source,
    type: log.type,
  };
}

/**
 * Validates a create request and claims its idempotency key in one synchronous step (no await,
 * latency or adapter can slip a second request with the same key in between, so two requests
 * with one key never both write), writing nothing yet.
 * @param body - the parsed JSON body, as received
 * @returns why it is answered without a write, or the claim that writes it
 */
export function claimProspectLog(store: Store, tenant: TenantData, body: unknown): ProspectLogRefusal | ClaimedProspectLog {
  const parsed = ProspectLogCreate.safeParse(body);
  if (!parsed.success) return { kind: "invalid", errors: toFieldErrors(parsed.error.issues, body) };
  return claimValidLog(store, tenant, parsed.data);
}

/**
 * Claims the idempotency key of a create request already validated (the API's body step did),
 * as {@link claimProspectLog} does.
 * @param request - the request, parsed by `ProspectLogCreate`
 * @returns why it is answered without a write, or the claim that writes it
 */
export function claimValidLog(
  store: Store,
  tenant: TenantData,
  request: ProspectLogCreateParsed,
): Exclude<ProspectLogRefusal, { kind: "invalid" }> | ClaimedProspectLog {
  const key = request.idempotencyKey;
  const entry = key === undefined ? null : claimKey(tenant, key, fingerprint(request), store.nowMs());
  if (entry !== null && "kind" in entry) return entry;
  return {
    kind: "claimed",
    write() {
      const result = writeLog(store, tenant, request);
      if (entry !== null) {
        entry.result = result;
        entry.storedAtMs = store.nowMs(); // the 24 hours start now
        tenant.idempotency.set(key!, entry); // stored again (its place kept): the journal hears of the result
      }
      return result;
    },
    release() {
      // A key whose request ended without a response to replay is freed.
      if (entry?.result === null && tenant.idempotency.get(key!) === entry) tenant.idempotency.delete(key!);
    },
  };
}
