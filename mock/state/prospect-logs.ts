/**
 * Creating a prospect log entry: the one implementation behind both `POST /v0/prospect_logs` and
 * `state.prospectLogs.create`. Validation and the idempotency decision happen first and write
 * nothing; only `commit` writes, and it cannot fail on input.
 * @module
 */
import {
  type FieldError,
  type ProspectLog,
  ProspectLogCreate,
  type ProspectLogCreateParsed,
  toFieldErrors,
} from "../../src/schemas/index.js";
import { fingerprint } from "../canonical-json.js";
import { formatTimestamp } from "../clock.js";
import { complete, decide, release, reserve } from "./idempotency.js";
import { insertProspect, resolveProspect } from "./prospects.js";
import type { ProspectLogRecord } from "./records.js";
import type { Store } from "./store.js";
import { appendTo, type TenantData } from "./tenant-data.js";

/** The outcome of preparing a create request. Only `ready` leads to a write, through `commit`. */
export type PreparedProspectLog =
  | { kind: "invalid"; errors: FieldError[] }
  | { kind: "replay"; result: ProspectLog }
  | { kind: "in-progress" }
  | { kind: "reused" }
  | { kind: "ready"; commit: () => ProspectLog };

function writeLog(store: Store, tenant: TenantData, request: ProspectLogCreateParsed): ProspectLog {
  const nowMs = store.nowMs();
  const createdAt = formatTimestamp(nowMs);
  const { prospect, created } = resolveProspect(tenant, request, (id) =>
    insertProspect(tenant, id ?? store.newId("prospect", nowMs), createdAt),
  );
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
  tenant.logs.set(log.id, log);
  appendTo(tenant.logsByProspect, prospect.id, log.id);
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
 * Validates a create request and settles its idempotency key, without writing anything except
 * the key's in-flight mark of a request that will be committed.
 * @param body - the parsed JSON body, as received
 * @returns what to answer, or `ready` with the `commit` that writes the log
 */
export function prepareProspectLog(store: Store, tenant: TenantData, body: unknown): PreparedProspectLog {
  const parsed = ProspectLogCreate.safeParse(body);
  if (!parsed.success) return { kind: "invalid", errors: toFieldErrors(parsed.error.issues, body) };
  const request = parsed.data;
  const key = request.idempotencyKey;
  if (key === undefined) return { kind: "ready", commit: () => writeLog(store, tenant, request) };

  const print = fingerprint(request);
  const decision = decide(tenant, key, print, store.nowMs());
  if (decision.kind !== "new") return decision;
  const entry = reserve(tenant, key, print, store.nowMs());
  return {
    kind: "ready",
    commit: () => {
      try {
        const result = writeLog(store, tenant, request);
        complete(entry, result, store.nowMs());
        return result;
      } catch (error) {
        release(tenant, key, entry);
        throw error;
      }
    },
  };
}
