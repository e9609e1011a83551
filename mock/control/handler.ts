/**
 * The control API under `/__mock` as a web-standard fetch handler: it lets any language drive and
 * inspect the mock over HTTP. Same rules as the API: the `x-api-key` header first (the key's
 * tenant scopes everything; another tenant's resource is a 404), then route errors (404, 405 with
 * `Allow`), then the body read like the API reads it (415, 413, 400) and validated with the
 * control schemas (400 listing every failing field). Every answer is JSON with `x-request-id`.
 * @module
 */
import type { ErrorCode } from "../../src/schemas/index.js";
import { type MockApi, MockStateError } from "../core.js";
import { coreOf } from "../create-mock-api.js";
import { parseJsonBody, readCapped } from "../http/body.js";
import { forMethod, methodOf } from "../http/method.js";
import { fieldErrorsOf, invalidFields, problem, type Reply, toResponse } from "../http/reply.js";
import { createRouter } from "../http/router.js";
import type { Inbox } from "./inbox.js";
import { CONTROL_ROUTES, type ControlContext, type ControlRoute } from "./routes.js";
import { NO_BODY } from "./schemas.js";

/** Where the control API lives. */
export const CONTROL_PATH_PREFIX = "/__mock";

/** What the control API needs. */
export interface MockControlOptions {
  /** The mock it drives (one made by `createMockApi`: its core authenticates and numbers requests). */
  readonly api: MockApi;
  /** Resets the mock (default `api.reset`). */
  reset?(): void;
  /** The built-in webhook inbox. */
  readonly inbox: Inbox;
}

const routeControl = createRouter(CONTROL_ROUTES);

/** Parses the query (when the route takes one) and the body (when it takes one). */
async function parseInput(route: ControlRoute, request: Request, url: URL, requestId: string): Promise<Reply | { body: unknown; query: unknown }> {
  let query: unknown;
  if (route.query !== undefined) {
    const raw = Object.fromEntries(url.searchParams);
    const parsed = route.query.safeParse(raw);
    if (!parsed.success) return invalidFields(requestId, fieldErrorsOf(parsed.error, raw), "query");
    query = parsed.data;
  }
  let body: unknown;
  if (route.rawBody === true || route.method === "GET") return { body, query };
  // A route without a body schema takes no body: none, an empty one, or `{}`; anything else is refused like any body.
  const schema = route.body ?? NO_BODY;
  const bytes = await readCapped(request).catch(() => undefined);
  if (bytes === undefined) return problem(requestId, "invalid_request", "The body could not be read.");
  if (route.body === undefined && bytes !== null && bytes.length === 0) return { body, query };
  const read = await parseJsonBody(request.headers, () => bytes);
  if (!read.ok) return problem(requestId, read.code, read.detail, read.errors ? { errors: read.errors } : {});
  const parsed = schema.safeParse(read.value);
  if (!parsed.success) return invalidFields(requestId, fieldErrorsOf(parsed.error, read.value));
  body = parsed.data;
  return { body, query };
}

/** Runs a route; a refusal of the state API (a taken ID, an unprocessed version) is a 400. */
async function runRoute(route: ControlRoute, context: ControlContext, requestId: string): Promise<Reply> {
  try {
    const result = await route.run(context);
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
 * The control API's authentication, for every route under {@link CONTROL_PATH_PREFIX} (a live
 * event stream included): the core's own check of the `x-api-key` header.
 * @param api - the mock
 * @param request - the request
 * @param requestId - the ID a refusal carries
 * @returns the caller's tenant, or the 401 problem to answer
 */
export function authenticateControl(api: MockApi, request: Request, requestId: string): { tenantId: string } | Reply {
  const auth = coreOf(api).authenticate(request.headers);
  return auth.ok ? { tenantId: auth.tenant.record.id } : problem(requestId, auth.code, auth.detail);
}

/**
 * Creates the control API on the core's router, authentication and request IDs. A route is one
 * entry of `CONTROL_ROUTES` (control/routes.ts).
 * @param options - the mock, and its reset
 * @returns a fetch handler for paths under {@link CONTROL_PATH_PREFIX}; it never rejects
 */
export function createMockControl(options: MockControlOptions): (request: Request) => Promise<Response> {
  const { api, reset = api.reset, inbox } = options;
  const core = coreOf(api);
  const answer = async (request: Request, requestId: string): Promise<Reply> => {
    const url = new URL(request.url);
    const match = routeControl(methodOf(request), url.pathname);
    // A public route (the inbox) takes no key; everywhere else the key is checked first (401 wins over 404).
    const isPublic = match.kind === "route" && match.route.public === true;
    const auth = isPublic ? { tenantId: "" } : authenticateControl(api, request, requestId);
    if ("status" in auth) return auth;
    const { tenantId } = auth;
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
      requestsOfTenant: () => core.requestsOf(tenantId),
      reset,
      request,
      inbox,
    };
    const reply = await runRoute(match.route, context, requestId);
    // A write is announced to live views: faults act on the whole server, and the inbox (a public
    // route) may receive for any tenant, so every tenant hears of those.
    if (match.route.method !== "GET" && reply.status < 300) {
      api.changes.announce(match.route.path.endsWith("/faults") || isPublic ? null : tenantId, { kind: "state" });
    }
    return reply;
  };
  return async (request) => {
    let requestId = "req_unavailable";
    try {
      requestId = core.newRequestId();
      // Rendering is inside the try too: whatever is stored, the answer is a response, never a dropped socket.
      return await forMethod(methodOf(request), toResponse(await answer(request, requestId), requestId));
    } catch {
      const failure = problem(
        requestId,
        "internal_error",
        "The control API failed unexpectedly. This is a bug in prospectkit/mock; please report it.",
      );
      return toResponse(failure, requestId);
    }
  };
}
