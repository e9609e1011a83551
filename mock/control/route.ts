/**
 * The shape of one control-API route and what its handler works with; the route tables
 * (`routes.ts`, `webhook-routes.ts`) both build on it.
 * @module
 */
import type * as z from "zod/mini";
import type { LoggedRequest, MockApi } from "../core.js";
import type { Inbox } from "./inbox.js";
import type { ControlResult } from "./results.js";

export type { ControlResult };

/** What a route works with: the mock, the caller's tenant, and the parsed request. */
export interface ControlContext {
  readonly api: MockApi;
  /** The tenant of the caller's API key: every read and write stays inside it. */
  readonly tenantId: string;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The body, parsed with the route's `body` schema (undefined without one). */
  // biome-ignore lint/suspicious/noExplicitAny: parsed by the route's own schema; each route reads the shape it declared
  readonly body: any;
  /** The query, parsed with the route's `query` schema (undefined without one). */
  // biome-ignore lint/suspicious/noExplicitAny: parsed by the route's own schema; each route reads the shape it declared
  readonly query: any;
  /** The requests of the caller's tenant in the mock's request log. */
  requestsOfTenant(): LoggedRequest[];
  /** Resets the whole mock (and what the control API keeps about it). */
  reset(): void;
  /** The request itself, for a route that reads its raw body (the inbox). */
  readonly request: Request;
  /** The server's built-in webhook inbox. */
  readonly inbox: Inbox;
}

/** One route of the control API. */
export interface ControlRoute {
  readonly method: "GET" | "POST" | "DELETE";
  /** The path, with `{name}` parameters, e.g. `/__mock/page_versions/{versionId}/publish`. */
  readonly path: string;
  /** Names the route in the OpenAPI document. */
  readonly operationId: string;
  readonly summary: string;
  /** The JSON request body, when the route takes one. */
  readonly body?: z.ZodMiniType;
  /** The query parameters, when the route takes any. */
  readonly query?: z.ZodMiniObject;
  /** The success status. */
  readonly status: 200 | 201;
  /** The success body. */
  readonly response: z.ZodMiniType;
  /** True for a route that takes no API key (the inbox receives from webhook senders, which have none). */
  readonly public?: true;
  /**
   * True for a route that reads its body's raw bytes itself (the inbox: a signed delivery). Every
   * other route without `body` takes no body: none, an empty one, or `{}`.
   */
  readonly rawBody?: true;
  run(context: ControlContext): ControlResult | Promise<ControlResult>;
}
