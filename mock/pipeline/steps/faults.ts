/**
 * The fault steps of the API's requests (`api.faults`, a tenant's own for its key's requests):
 * faults stand for the infrastructure, so they are taken before the key check; those matched on
 * body fields once the body is read, for what the first left empty. A fault answers a status, or
 * drops the connection at once; or it lets the request run, then drops its answer (after its
 * latency) or cuts its body in half. A latency fault adds to the request's latency (`latency.ts`).
 * @module
 */
import { API_KEY_HEADER } from "../../../src/redact.js";
import { ERROR_CODES } from "../../../src/schemas/index.js";
import { EXTRA_STATUS_TITLES, PROBLEM_STATUSES } from "../../../src/schemas/problem.js";
import type { FaultRegistry, FaultRequest, TakenFaults } from "../../faults/faults.js";
import type { Exchange, Next, Step } from "../exchange.js";
import { problem, type Reply } from "../reply.js";

/** The problem reply of an injected status fault (400 to 599; a 429 with `Retry-After`). */
function faultReply(requestId: string, status: number, retryAfterSeconds: number | null): Reply {
  const code =
    status === 429
      ? "rate_limited"
      : status >= 500
        ? "internal_error"
        : (ERROR_CODES.find((c) => PROBLEM_STATUSES[c].status === status) ?? "invalid_request");
  return problem(requestId, code, `The mock answers ${status} because a fault was injected for this call.`, {
    status,
    ...(EXTRA_STATUS_TITLES[status] !== undefined && { title: EXTRA_STATUS_TITLES[status] }),
    ...(retryAfterSeconds !== null && { headers: { "retry-after": String(retryAfterSeconds) } }),
  });
}

/** A malformed-body fault's reply: the body cut in half, what a client sees when a proxy mangles a response. */
function malformed(reply: Reply): Reply {
  const text = reply.text ?? JSON.stringify(reply.body);
  return { ...reply, text: text.slice(0, Math.max(1, text.length >> 1)) };
}

const faultRequest = (x: Exchange): FaultRequest => ({
  operation: x.route?.operation ?? null,
  tenantId: x.tenant?.record.id ?? null,
  params: x.params,
  secret: x.request.headers.get(API_KEY_HEADER),
});

async function apply(x: Exchange, taken: TakenFaults, next: Next): Promise<void> {
  x.latencyMs += taken.latencyMs;
  const { fault } = taken;
  if (fault === null) return next(x);
  if (fault.kind === "status") return void (x.reply = faultReply(x.requestId, fault.status, fault.retryAfterSeconds));
  if (fault.kind === "network-error" && !fault.afterProcessing) return void (x.reply = null);
  await next(x);
  if (fault.kind === "malformed-body") {
    if (x.reply != null) x.reply = malformed(x.reply);
    return;
  }
  const waiting = x.delay();
  if (waiting !== undefined) await waiting;
  x.reply = null;
}

/** Those that need no body, before the key check. */
export const faults =
  (registry: Pick<FaultRegistry, "take">): Step =>
  (x, next) =>
    apply(x, (x.faults = registry.take(faultRequest(x))), next);

/** Those matched on body fields, once the body is read. */
export const bodyFaults =
  (registry: Pick<FaultRegistry, "takeByBody">): Step =>
  (x, next) =>
    apply(x, registry.takeByBody(faultRequest(x), x.sent, x.faults), next);
