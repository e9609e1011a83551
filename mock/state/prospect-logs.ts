/**
 * Creating a prospect log entry: the one implementation behind both `POST /v0/prospect_logs` and
 * `state.prospectLogs.create`. Validation and the idempotency decision happen first and write
 * nothing; only `commit` writes, and it cannot fail on input.
 * @module
 */
import { type FieldError, type ProspectLog, ProspectLogCreate, type ProspectLogCreateParsed, toFieldErrors } from "../../src/schemas/index.js";
import { fingerprint } from "../canonical-json.js";
import { formatTimestamp } from "../clock.js";
import { claim, complete, type IdempotencyDecision, peek, release } from "./idempotency.js";
import { insertProspect, resolveProspect } from "./prospects.js";
import type { ProspectLogRecord } from "./records.js";
import type { Store } from "./store.js";
import { storeLog, type TenantData } from "./tenant-data.js";

/** What a create request gets: refused, answered from its idempotency key, or created. */
export type ProspectLogDecision =
  | { kind: "invalid"; errors: FieldError[] }
  | { kind: "replay"; result: ProspectLog }
  | { kind: "in-progress" }
  | { kind: "reused" }
  | { kind: "created"; result: ProspectLog };

/**
 * A validated create request. `early` is its answer when that is already known (invalid, or
 * settled by its idempotency key). Otherwise `hold` claims the key when the answer will wait
 * (injected latency), so a concurrent request with the same key gets 409 meanwhile, and `commit`
 * claims it (unless held) and writes. Claiming decides and reserves in one step, so two requests
 * with one key can never both be told "new", whatever awaits lie between them.
 */
export interface PreparedProspectLog {
  readonly early: Exclude<ProspectLogDecision, { kind: "created" }> | null;
  hold(): void;
  commit(): ProspectLogDecision;
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
 * Validates a create request and settles what its idempotency key already decides, writing nothing.
 * @param body - the parsed JSON body, as received
 * @returns the early answer, or the `commit` that writes the log
 */
export function prepareProspectLog(store: Store, tenant: TenantData, body: unknown): PreparedProspectLog {
  const parsed = ProspectLogCreate.safeParse(body);
  const none = () => {
    throw new TypeError("prepareProspectLog: nothing to commit");
  };
  if (!parsed.success) return { early: { kind: "invalid", errors: toFieldErrors(parsed.error.issues, body) }, hold: none, commit: none };
  const request = parsed.data;
  const key = request.idempotencyKey;
  const print = key === undefined ? "" : fingerprint(request);
  const claimNow = (): IdempotencyDecision | null => (key === undefined ? null : claim(tenant, key, print, store.nowMs()));
  const first = key === undefined ? null : peek(tenant, key, print, store.nowMs());
  if (first !== null && first.kind !== "new") return { early: first, hold: none, commit: none };

  let held: IdempotencyDecision | null | undefined;
  return {
    early: null,
    hold() {
      if (held === undefined) held = claimNow();
    },
    commit() {
      const decision = held === undefined ? claimNow() : held;
      held = undefined;
      if (decision !== null && decision.kind !== "new") return decision;
      const entry = decision?.entry ?? null;
      try {
        const result = writeLog(store, tenant, request);
        if (entry !== null) complete(entry, result, store.nowMs());
        return { kind: "created", result };
      } catch (error) {
        if (entry !== null && key !== undefined) release(tenant, key, entry);
        throw error;
      }
    },
  };
}
