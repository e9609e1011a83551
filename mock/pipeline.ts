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
  /** A new `req_` ID, for the time `atMs` (default: now). */
  newRequestId(atMs?: number): string;
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

/** What the pipeline learns of one request as it goes: what the request log records. */
interface Trace {
  requestId: string;
  receivedAt: string;
  path: string;
  operation: OperationId | null;
  tenantId: string | null;
  requestBody: unknown;
}

/** A request routed and authenticated, with the faults it took and its operation's outcome (a write still pending). */
interface Begun {
  readonly outcome: MaybePromise<Reply | Pending> | null;
  readonly latencyMs: number;
  readonly fault: TakenFaults["fault"];
}

function internalError(requestId: string): Reply {
  return problem(requestId, "internal_error", "The mock failed unexpectedly. This is a bug in prospectkit/mock; please report it.");
}

/** Route, authentication, faults and the operation, noting what the log needs in `trace`. May throw (the caller answers 500). */
function begin(deps: PipelineDeps, store: Store, request: LightRequest, trace: Trace): Begun {
  const nowMs = store.nowMs();
  trace.requestId = deps.newRequestId(nowMs);
  trace.receivedAt = formatTimestamp(nowMs);
  trace.path = request.path;
  const route = matchRoute(request.method, relativePath(trace.path, deps.basePath));
  // Looked up first so the log knows the caller of every request, faults and 404s included.
  const auth = authenticate(store, request.headers);
  if (auth.ok) trace.tenantId = auth.tenant.record.id;
  trace.operation = route.kind === "operation" ? route.operation : null;
  const { latencyMs, fault } = deps.takeFaults(trace.operation);
  const dropNow = fault?.kind === "network-error" && !fault.afterProcessing;
  const outcome = dropNow
    ? null
    : fault?.kind === "status"
      ? faultReply(trace.requestId, fault.status, fault.retryAfterSeconds)
      : answer(store, request, route, auth, trace.requestId, (body) => (trace.requestBody = body));
  return { outcome, latencyMs, fault };
}

/** Commits a pending write and applies a fault that changes the answer: the reply, or null for a dropped connection. */
function settle(trace: Trace, begun: Begun, outcome: Reply | Pending | null): Reply | null {
  try {
    if (outcome === null) return null;
    const answered = isPending(outcome) ? outcome.commit() : outcome;
    return begun.fault?.kind === "network-error" ? null : begun.fault?.kind === "malformed-body" ? malformed(answered) : answered;
  } catch {
    return internalError(trace.requestId);
  }
}

/** The rest of a request that waits: for its body, or for an injected latency (the write is held meanwhile). */
async function later(trace: Trace, begun: Begun): Promise<Reply | null> {
  let outcome: Reply | Pending | null;
  try {
    outcome = await begun.outcome;
    if (begun.latencyMs > 0) {
      if (outcome !== null && isPending(outcome)) outcome.hold();
      await new Promise((resolve) => setTimeout(resolve, begun.latencyMs));
    }
  } catch {
    return internalError(trace.requestId);
  }
  return settle(trace, begun, outcome);
}

/**
 * Creates the pipeline.
 * @param deps - state, base path, request IDs, faults and the request log
 * @returns a function answering one request: at once when nothing makes it wait (its body is
 *   already here and no latency is injected), else a promise; it never throws or rejects
 */
export function createPipeline(deps: PipelineDeps): (request: LightRequest) => MaybePromise<LightOutcome> {
  const finish = (request: LightRequest, store: Store, trace: Trace, started: number, reply: Reply | null): LightOutcome => {
    // A request that failed before its key was looked up (an unexpected error) still belongs to its key's tenant.
    if (trace.tenantId === null) {
      const auth = authenticate(store, request.headers);
      if (auth.ok) trace.tenantId = auth.tenant.record.id;
    }
    const { requestId } = trace;
    deps.record({
      requestId,
      method: request.method,
      path: trace.path,
      operation: trace.operation,
      status: reply?.status ?? 0,
      requestBody: trace.requestBody,
      responseBody: reply === null ? undefined : (reply.rawText ?? reply.body),
      receivedAt: trace.receivedAt,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      tenantId: trace.tenantId,
    });
    return reply === null ? { kind: "network-error" } : { kind: "reply", reply: renderReply(reply, requestId, request.method) };
  };
  return (request) => {
    const started = performance.now();
    const store = deps.store();
    const trace: Trace = { requestId: "req_unavailable", receivedAt: "", path: "", operation: null, tenantId: null, requestBody: undefined };
    let begun: Begun;
    try {
      begun = begin(deps, store, request, trace);
    } catch {
      return finish(request, store, trace, started, internalError(trace.requestId));
    }
    if (begun.latencyMs === 0 && !(begun.outcome instanceof Promise))
      return finish(request, store, trace, started, settle(trace, begun, begun.outcome));
    return later(trace, begun).then((reply) => finish(request, store, trace, started, reply));
  };
}
