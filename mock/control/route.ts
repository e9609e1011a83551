/**
 * The shape of one control-API route and what its handler works with; the route tables
 * (`routes.ts`, `webhook-routes.ts`) build on it, and {@link controlRoute} turns an entry into an
 * entry of the mock's one route table.
 * @module
 */
import type * as z from "zod/mini";
import type { FieldError } from "../../src/schemas/index.js";
import { MockStateError } from "../lib/errors.js";
import type { MockApi } from "../mock-api.js";
import type { LoggedRequest } from "../observe/request-log.js";
import { type MockErrorCode, problem, type Reply } from "../pipeline/reply.js";
import type { Route, RouteContext } from "../pipeline/route.js";
import type { Inbox } from "./inbox.js";

/** Where the control API lives. */
export const CONTROL_PATH_PREFIX = "/__mock";

/** A status a control route answers instead of its body (besides the handler's own: 401, and 400, 413, 415 for what it reads). */
export type RefusalStatus = 400 | 403 | 404 | 409;

/** What a route answers instead of its body: a 400 with field errors, a 404, or a 403 or 409 with its own code. */
export class Refusal {
  constructor(
    readonly status: RefusalStatus,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** The problem's code (default: `not_found` for a 404, else `invalid_request`). */
    readonly code?: MockErrorCode,
  ) {}
}

/** The 404 of a resource the caller's tenant does not have. */
export const notFound = (what: string, id: string) => new Refusal(404, `Your tenant has no ${what} ${JSON.stringify(id)}.`);

/** The 400 of a body field naming a resource the caller's tenant does not have. */
export const missingReference = (field: string, what: string) =>
  new Refusal(400, "The request body names a resource your tenant does not have (see errors).", [
    { pointer: `/${field}`, code: "not_found", detail: `${field} names no ${what} of your tenant` },
  ]);

/** What a route works with: the mock, the caller's tenant, and the parsed request (its headers, for the inbox). */
export interface ControlContext extends Pick<RouteContext, "params" | "request" | "routes"> {
  readonly api: MockApi;
  /** The tenant of the caller's API key: every read and write stays inside it ("" on a public route). */
  readonly tenantId: string;
  /** The body, parsed with the route's `body` schema (its bytes for `"raw"`; undefined without one). */
  // biome-ignore lint/suspicious/noExplicitAny: parsed by the route's own schema; each route reads the shape it declared
  readonly body: any;
  /** The query, parsed with the route's `query` schema (undefined without one). */
  // biome-ignore lint/suspicious/noExplicitAny: parsed by the route's own schema; each route reads the shape it declared
  readonly query: any;
  /** The requests of the caller's tenant in the mock's request log. */
  requestsOfTenant(): LoggedRequest[];
  /** The built-in webhook inbox. */
  readonly inbox: Inbox;
}

/** One route of the control API: what the route table needs, and what the OpenAPI document says of it. */
export interface ControlRoute extends Pick<Route, "path" | "query" | "public" | "session"> {
  readonly method: "GET" | "POST" | "DELETE";
  /** Names the route in the OpenAPI document. */
  readonly operationId: string;
  readonly summary: string;
  /** The JSON request body, when the route takes one; `"raw"` for a route that reads its bytes itself (the inbox). */
  readonly body?: z.ZodMiniType | "raw";
  /** The success status: 201 for a route that creates, else 200. */
  readonly status?: 201;
  /** The success body. */
  readonly response: z.ZodMiniType;
  /**
   * The statuses `run` answers instead of its body, each with when (for the OpenAPI document,
   * which adds what the handler answers for every route: 401, and 400, 413, 415 for what it reads).
   */
  readonly refuses?: Readonly<Partial<Record<RefusalStatus, string>>>;
  /** What the route does, in a paragraph: the OpenAPI document's description of the operation. */
  readonly description: string;
  /** Who hears of a successful write: the caller's tenant (default), or nobody (`"self"`: the route announces its own change to whom it concerns, as a reset and the inbox do). */
  readonly announces?: "tenant" | "self";
  /** The success body, or a refusal. */
  run(context: ControlContext): unknown;
}

/** A success or a refusal as a reply; a refusal of the state API (a taken ID, an unprocessed version) is a 400. */
async function replyOf(route: ControlRoute, context: ControlContext, requestId: string): Promise<Reply> {
  try {
    const result = await route.run(context);
    if (!(result instanceof Refusal)) return { status: route.status ?? 200, body: result };
    const code = result.code ?? (result.status === 404 ? "not_found" : "invalid_request");
    return problem(requestId, code, result.detail, result.errors ? { errors: result.errors } : {});
  } catch (error) {
    if (!(error instanceof MockStateError)) throw error;
    const errors = [...error.errors];
    return problem(requestId, "invalid_request", `The mock refused the change: ${error.message}.`, errors.length > 0 ? { errors } : {});
  }
}

/**
 * An entry of the mock's route table for a control route: the handler checks its key, reads its
 * body and query; this runs it, renders its result, and announces a successful write to live views.
 * @param services - the mock it drives, the logged requests of a tenant, the inbox
 */
export function controlRoute(
  route: ControlRoute,
  services: { readonly api: MockApi; requestsOf(tenantId: string): LoggedRequest[]; readonly inbox: Inbox },
): Route {
  const { api } = services;
  return {
    ...route,
    area: "control",
    async run({ request, requestId, params, tenant, body, query, routes }) {
      const tenantId = tenant?.record.id ?? "";
      const requestsOfTenant = () => services.requestsOf(tenantId);
      const context: ControlContext = { api, tenantId, params, body, query, request, routes, requestsOfTenant, inbox: services.inbox };
      const reply = await replyOf(route, context, requestId);
      if (route.method !== "GET" && route.announces !== "self" && reply.status < 300) api.changes.announce(tenantId, { kind: "state" });
      return reply;
    },
  };
}
