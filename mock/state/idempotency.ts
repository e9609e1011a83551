/**
 * Idempotency keys of "create prospect log entry" (docs/behaviour.md, "Idempotency"): scoped to
 * (tenant, key), kept 24 hours, compared by a fingerprint of the body after defaults.
 * @module
 */
import type { ProspectLog } from "../../src/schemas/index.js";
import type { IdempotencyEntry, TenantData } from "./tenant-data.js";

/** How long a key is remembered after its request completed: 24 hours. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What a request with an idempotency key must do. */
export type IdempotencyDecision =
  | { kind: "new"; entry: IdempotencyEntry }
  | { kind: "replay"; result: ProspectLog }
  | { kind: "in-progress" }
  | { kind: "reused" };

function expired(entry: IdempotencyEntry, nowMs: number): boolean {
  return entry.result !== null && nowMs - entry.storedAtMs >= IDEMPOTENCY_WINDOW_MS;
}

/**
 * Forgets expired keys from the oldest end, stopping at the first live one: each key is removed
 * once, so the cost per request stays constant however many keys are stored.
 */
function sweep(tenant: TenantData, nowMs: number): void {
  for (const [key, entry] of tenant.idempotency) {
    if (!expired(entry, nowMs)) return;
    tenant.idempotency.delete(key);
  }
}

/**
 * Decides what a request with `key` and body `fingerprint` gets, in one synchronous step: the
 * stored response, 409 (the first request is still in flight, same body), 422 (a different body),
 * or a fresh run, for which the key is reserved (in flight) before this returns. Deciding and
 * reserving are one step so that no await, injected latency or adapter can slip a second request
 * with the same key between them: concurrent requests with one key never create two logs.
 */
export function claim(tenant: TenantData, key: string, fingerprint: string, nowMs: number): IdempotencyDecision {
  sweep(tenant, nowMs);
  const entry = tenant.idempotency.get(key);
  if (entry !== undefined && !expired(entry, nowMs)) {
    if (entry.fingerprint !== fingerprint) return { kind: "reused" };
    return entry.result === null ? { kind: "in-progress" } : { kind: "replay", result: entry.result };
  }
  const fresh: IdempotencyEntry = { fingerprint, result: null, storedAtMs: nowMs };
  tenant.idempotency.delete(key); // an expired entry moves to the young end
  tenant.idempotency.set(key, fresh);
  return { kind: "new", entry: fresh };
}

/** Stores the response of the request that held `entry`; the 24 hours start now. */
export function complete(entry: IdempotencyEntry, result: ProspectLog, nowMs: number): void {
  entry.result = result;
  entry.storedAtMs = nowMs;
}

/** Drops an in-flight key whose request ended without a response to replay. */
export function release(tenant: TenantData, key: string, entry: IdempotencyEntry): void {
  if (tenant.idempotency.get(key) === entry) tenant.idempotency.delete(key);
}
