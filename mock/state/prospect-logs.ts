/**
 * Creating a prospect log entry: the one implementation behind both `POST /v0/prospect_logs` and
 * `state.prospectLogs.create`. Validation and the idempotency claim happen first and write
 * nothing; only `write` writes, and it cannot fail on input.
 * @module
 */
import { type FieldError, type ProspectLog, ProspectLogCreate, type ProspectLogCreateParsed, toFieldErrors } from "../../src/schemas/index.js";
import { fingerprint } from "../lib/canonical-json.js";
import { formatTimestamp } from "../lib/clock.js";
import { claim, complete, release } from "./idempotency.js";
import { insertProspect, resolveProspect } from "./prospects.js";
import type { ProspectLogRecord } from "./records.js";
import type { Store } from "./store.js";
import { storeLog, type TenantData } from "./tenant-data.js";

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
  storeLog(tenant, log);
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
  const request = parsed.data;
  const key = request.idempotencyKey;
  const decision = key === undefined ? null : claim(tenant, key, fingerprint(request), store.nowMs());
  if (decision !== null && decision.kind !== "new") return decision;
  const entry = decision?.entry ?? null;
  return {
    kind: "claimed",
    write() {
      const result = writeLog(store, tenant, request);
      if (entry !== null) complete(entry, result, store.nowMs());
      return result;
    },
    release() {
      if (entry !== null && key !== undefined && entry.result === null) release(tenant, key, entry);
    },
  };
}
