/**
 * The request pipeline shared by every adapter (`api.fetch`, the MSW handlers, the standalone
 * server): route, faults, authentication (before anything else), route errors, then the
 * operation; every outcome is a JSON reply with `x-request-id`. It works on a light request and
 * answers a light reply (http/light.ts), so no adapter pays for a fetch `Request` or `Response`
 * it does not already have. An unexpected exception becomes a 500 problem instead of escaping
 * (the property tests prove none occurs).
 * @module
 */

import { API_PREFIX, type OperationId } from "../src/operations.js";
import { ERROR_CODES } from "../src/schemas/index.js";
import { EXTRA_STATUS_TITLES, PROBLEM_STATUSES } from "../src/schemas/problem.js";
import { formatTimestamp } from "./clock.js";
import type { TakenFaults } from "./faults.js";
import { type AuthResult, authenticate } from "./http/auth.js";
import { parseJsonBody } from "./http/body.js";
import { type LightOutcome, type LightRequest, renderReply, toFetchResponse } from "./http/light.js";
import { andThen, type MaybePromise } from "./http/maybe-async.js";
import { problem, type Reply } from "./http/reply.js";
import { type ApiRouteMatch, matchRoute } from "./http/router.js";
import { isPending, type Pending } from "./operations/context.js";
import { OPERATION_HANDLERS } from "./operations/index.js";
import type { LoggedRequest } from "./request-log.js";
import type { Store } from "./state/store.js";

/** What the pipeline produced: a response, or a dropped connection. */
export type Outcome = { readonly kind: "response"; readonly response: Response } | { readonly kind: "network-error" };

/**
 * The fetch outcome of a light one (for `api.handle`, `api.fetch` and the MSW handlers).
 * @param outcome - the pipeline's outcome
 */
export function toOutcome(outcome: LightOutcome): Outcome {
  return outcome.kind === "network-error" ? outcome : { kind: "response", response: toFetchResponse(outcome.reply) };
}

/** What the pipeline needs from the mock. */
export interface PipelineDeps {
  /** The current state. */
  store(): Store;
  /** The base URL's path without a trailing slash ("" for a host root). */
  readonly basePath: string;
  /** A new `req_` ID. */
  newRequestId(): string;
  takeFaults(operation: OperationId | null): TakenFaults;
  /** Logs an answered request (with the caller's tenant, when its key is known). */
  record(entry: LoggedRequest): void;
}

/** The problem reply of an injected status fault. */
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

/** The reply with its body cut in half: what a client sees when a proxy mangles a response. */
function malformed(reply: Reply): Reply {
  const text = JSON.stringify(reply.body);
  return { ...reply, rawText: text.slice(0, Math.max(1, text.length >> 1)) };
}

function relativePath(pathname: string, basePath: string): string {
  if (basePath === "") return pathname;
  return pathname === basePath || pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : "";
}

/** Authentication, route errors and the operation, in the documented order (at once when the body is already here). */
function answer(
  store: Store,
  request: LightRequest,
  route: ApiRouteMatch,
  auth: AuthResult,
  requestId: string,
  onBody: (body: unknown) => void,
): MaybePromise<Reply | Pending> {
  if (route.kind === "not-found" && !route.underApi) {
    return problem(requestId, "not_found", `Every API path starts with ${API_PREFIX}.`);
  }
  if (!auth.ok) return problem(requestId, auth.code, auth.detail);
  if (route.kind === "not-found") return problem(requestId, "not_found", "No API operation has this path.");
  if (route.kind === "wrong-method") {
    const allow = route.allow.join(", ");
    return problem(requestId, "method_not_allowed", `This path accepts ${allow} only.`, { headers: { allow } });
  }
  const readBody = () =>
    andThen(
      parseJsonBody(request.headers, () => request.body()),
      (body) => {
        if (body.ok) onBody(body.value);
        return body;
      },
    );
  return OPERATION_HANDLERS[route.operation]({ store, tenant: auth.tenant, params: route.params, requestId, readBody });
}

/**
 * Creates the pipeline.
 * @param deps - state, base path, request IDs, faults and the request log
 * @returns a function answering one request; it never throws
 */
export function createPipeline(deps: PipelineDeps): (request: LightRequest) => Promise<LightOutcome> {
  return async (request) => {
    const started = performance.now();
    const store = deps.store();
    let requestId = "req_unavailable";
    let receivedAt = "";
    let path = "";
    let operation: OperationId | null = null;
    let tenantId: string | null = null;
    let requestBody: unknown;
    let reply: Reply | null = null;
    try {
      requestId = deps.newRequestId();
      receivedAt = formatTimestamp(store.nowMs());
      path = request.path;
      const route = matchRoute(request.method, relativePath(path, deps.basePath));
      // Looked up first so the log knows the caller of every request, faults and 404s included.
      const auth = authenticate(store, request.headers);
      if (auth.ok) tenantId = auth.tenant.record.id;
      operation = route.kind === "operation" ? route.operation : null;
      const { latencyMs, fault } = deps.takeFaults(operation);
      const dropNow = fault?.kind === "network-error" && !fault.afterProcessing;
      let pending = dropNow
        ? null
        : fault?.kind === "status"
          ? faultReply(requestId, fault.status, fault.retryAfterSeconds)
          : answer(store, request, route, auth, requestId, (body) => (requestBody = body));
      if (pending instanceof Promise) pending = await pending;
      if (latencyMs > 0) {
        if (pending !== null && isPending(pending)) pending.hold();
        await new Promise((resolve) => setTimeout(resolve, latencyMs));
      }
      if (pending !== null) {
        const answered = isPending(pending) ? pending.commit() : pending;
        reply = fault?.kind === "network-error" ? null : fault?.kind === "malformed-body" ? malformed(answered) : answered;
      }
    } catch {
      reply = problem(requestId, "internal_error", "The mock failed unexpectedly. This is a bug in prospectkit/mock; please report it.");
    }
    // A request answered before authentication (an injected fault) still belongs to its key's tenant.
    if (tenantId === null) {
      const auth = authenticate(store, request.headers);
      if (auth.ok) tenantId = auth.tenant.record.id;
    }
    deps.record({
      requestId,
      method: request.method,
      path,
      operation,
      status: reply?.status ?? 0,
      requestBody,
      responseBody: reply === null ? undefined : (reply.rawText ?? reply.body),
      receivedAt,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      tenantId,
    });
    return reply === null ? { kind: "network-error" } : { kind: "reply", reply: renderReply(reply, requestId, request.method) };
  };
}
