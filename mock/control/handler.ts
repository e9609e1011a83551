/**
 * The control API under `/__mock` as a web-standard fetch handler: it lets any language drive and
 * inspect the mock over HTTP. Same rules as the API: the `x-api-key` header first (the key's
 * tenant scopes everything; another tenant's resource is a 404), then route errors (404, 405 with
 * `Allow`), then the body read like the API reads it (415, 413, 400) and validated with the
 * control schemas (400 listing every failing field). Every answer is JSON with `x-request-id`.
 * @module
 */
import { type ErrorCode, toFieldErrors } from "../../src/schemas/index.js";
import { MockStateError, type MockApi } from "../core.js";
import { API_KEY_HEADER } from "../http/auth.js";
import { readJsonBody } from "../http/body.js";
import { allowList, forMethod, methodOf, routingMethod } from "../http/method.js";
import { problem, type Reply, toResponse } from "../http/reply.js";
import type { TenantOfKey } from "./keys.js";
import { newRequestId } from "./request-id.js";
import type { RequestOwners } from "./request-owners.js";
import { CONTROL_ROUTES, type ControlContext, type ControlRoute } from "./routes.js";

/** Where the control API lives. */
export const CONTROL_PATH_PREFIX = "/__mock";

/** What the control API needs. */
export interface MockControlOptions {
  /** The mock it drives. */
  readonly api: MockApi;
  /** The tenant of each API key. */
  readonly tenantOf: TenantOfKey;
  /** Who made each logged request. */
  readonly owners: RequestOwners;
  /** Resets the mock and everything kept about it. */
  reset(): void;
}

type RouteMatch =
  | { readonly kind: "route"; readonly route: ControlRoute; readonly params: Record<string, string> }
  | { readonly kind: "wrong-method"; readonly allow: string[] }
  | { readonly kind: "not-found" };

const compiled = CONTROL_ROUTES.map((route) => ({ route, segments: route.path.split("/") }));

function matchSegments(pattern: readonly string[], segments: readonly string[]): Record<string, string> | null {
  if (pattern.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!;
    if (!expected.startsWith("{")) {
      if (expected !== segments[i]) return null;
      continue;
    }
    try {
      params[expected.slice(1, -1)] = decodeURIComponent(segments[i]!);
    } catch {
      return null;
    }
    if (params[expected.slice(1, -1)] === "") return null;
  }
  return params;
}

function matchRoute(method: string, path: string): RouteMatch {
  const segments = path.split("/");
  const allow: string[] = [];
  for (const { route, segments: pattern } of compiled) {
    const params = matchSegments(pattern, segments);
    if (params === null) continue;
    if (route.method === routingMethod(method)) return { kind: "route", route, params };
    allow.push(route.method);
  }
  return allow.length > 0 ? { kind: "wrong-method", allow: allowList(allow) } : { kind: "not-found" };
}

function invalid(requestId: string, errors: ReturnType<typeof toFieldErrors>, what: string): Reply {
  const count = errors.length === 1 ? "1 field is" : `${errors.length} fields are`;
  return problem(requestId, "invalid_request", `The ${what} is invalid: ${count} invalid (see errors).`, { errors });
}

/** Parses the query (when the route takes one) and the body (when it takes one). */
async function parseInput(route: ControlRoute, request: Request, url: URL, requestId: string): Promise<Reply | { body: unknown; query: unknown }> {
  let query: unknown;
  if (route.query !== undefined) {
    const raw = Object.fromEntries(url.searchParams);
    const parsed = route.query.safeParse(raw);
    if (!parsed.success) return invalid(requestId, toFieldErrors(parsed.error.issues, raw), "query");
    query = parsed.data;
  }
  let body: unknown;
  if (route.body !== undefined) {
    const read = await readJsonBody(request);
    if (!read.ok) return problem(requestId, read.code, read.detail, read.errors ? { errors: read.errors } : {});
    const parsed = route.body.safeParse(read.value);
    if (!parsed.success) return invalid(requestId, toFieldErrors(parsed.error.issues, read.value), "request body");
    body = parsed.data;
  }
  return { body, query };
}

/** Runs a route; a refusal of the state API (a taken ID, an unprocessed version) is a 400. */
function run(route: ControlRoute, context: ControlContext, requestId: string): Reply {
  try {
    const result = route.run(context);
    if (result.ok) return { status: route.status, body: result.body };
    const code: ErrorCode = result.status === 404 ? "not_found" : "invalid_request";
    return problem(requestId, code, result.detail, result.errors ? { errors: result.errors } : {});
  } catch (error) {
    if (!(error instanceof MockStateError)) throw error;
    const errors = [...error.errors];
    return problem(requestId, "invalid_request", `The mock refused the change: ${error.message}.`, errors.length > 0 ? { errors } : {});
  }
}

/**
 * The control API's authentication, for every route under {@link CONTROL_PATH_PREFIX} (the
 * console's event stream included): the `x-api-key` header names a known key.
 * @param request - the request
 * @param tenantOf - the key directory
 * @param requestId - the ID a refusal carries
 * @returns the caller's tenant, or the 401 problem to answer
 */
export function authenticateControl(request: Request, tenantOf: TenantOfKey, requestId: string): { tenantId: string } | Reply {
  const key = request.headers.get(API_KEY_HEADER);
  if (key === null || key === "") return problem(requestId, "missing_api_key", "Send your API key in the x-api-key header.");
  const tenantId = tenantOf(key);
  if (tenantId === null) return problem(requestId, "invalid_api_key", "The API key in the x-api-key header is unknown or revoked.");
  return { tenantId };
}

/**
 * Creates the control API.
 * @param options - the mock, the key directory, the request owners and the reset
 * @returns a fetch handler for paths under {@link CONTROL_PATH_PREFIX}; it never rejects
 */
export function createMockControl(options: MockControlOptions): (request: Request) => Promise<Response> {
  const { api, tenantOf, owners, reset } = options;
  const answer = async (request: Request, requestId: string): Promise<Reply> => {
    const auth = authenticateControl(request, tenantOf, requestId);
    if ("status" in auth) return auth;
    const { tenantId } = auth;
    const url = new URL(request.url);
    const match = matchRoute(methodOf(request), url.pathname);
    if (match.kind === "not-found") return problem(requestId, "not_found", "No control API route has this path (see /__mock/openapi.json).");
    if (match.kind === "wrong-method") {
      const allow = match.allow.join(", ");
      return problem(requestId, "method_not_allowed", `This path accepts ${allow} only.`, { headers: { allow } });
    }
    const input = await parseInput(match.route, request, url, requestId);
    if ("status" in input) return input;
    const context: ControlContext = {
      api,
      tenantId,
      params: match.params,
      ...input,
      requestsOfTenant: () => owners.list(tenantId),
      reset,
    };
    const reply = run(match.route, context, requestId);
    // A write is announced to live views: faults act on the whole server, so every tenant hears of them.
    if (match.route.method !== "GET" && reply.status < 300) {
      api.changes.announce(match.route.path.endsWith("/faults") ? null : tenantId, { kind: "state" });
    }
    return reply;
  };
  return async (request) => {
    const requestId = newRequestId();
    try {
      // Rendering is inside the try too: whatever is stored, the answer is a response, never a dropped socket.
      return await forMethod(methodOf(request), toResponse(await answer(request, requestId), requestId));
    } catch {
      const failure = problem(requestId, "internal_error", "The control API failed unexpectedly. This is a bug in prospectkit/mock; please report it.");
      return toResponse(failure, requestId);
    }
  };
}
