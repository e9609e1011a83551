/**
 * One entry of the mock's route table, whatever it serves: an operation of the API, a control
 * route, a document, a page of the console. The handler (pipeline/handler.ts) matches a request
 * against the table, and its steps apply what the entry declares: its part of the mock (whose
 * steps it takes), whether it takes a key, its body and its query, then `run`.
 * @module
 */
import type * as z from "zod/mini";
import type { PathParam } from "../../src/operation-row.js";
import type { OperationId } from "../../src/operation-table.js";
import type { TenantData } from "../state/tenant-data.js";
import type { Reply } from "./reply.js";
import type { MockRequest } from "./request.js";

/**
 * The part of the mock a route belongs to. It decides which steps its requests take (faults and
 * latency apply to the API's, and the request log keeps them; the console's are the console's own
 * traffic), and what a request that matches no route of the part gets (the API and the control API
 * check the key first).
 */
export type RouteArea = "api" | "control" | "document" | "console";

/** What a route's `run` works with. */
export interface RouteContext {
  readonly request: MockRequest;
  readonly requestId: string;
  /** Decoded path parameters (under each parameter's key). */
  readonly params: Readonly<Record<string, string>>;
  /** The caller's tenant (`null` on a public route called without a known key). */
  readonly tenant: TenantData | null;
  /** The body: parsed and validated by the route's schema, parsed only (`"json"`), the bytes (`"raw"`), or undefined. */
  readonly body: unknown;
  /** The query, parsed by the route's `query` schema (undefined without one). */
  readonly query: unknown;
  /** The route table this request was routed in (the index, `GET /__mock`, lists it). */
  readonly routes: readonly Route[];
  /**
   * Waits out this request's injected latency (a fault, or the server's `--latency`): `undefined`
   * when there is none, so that a write without latency happens in the same step as its checks
   * (`const waiting = delay(); if (waiting) await waiting;`). A write awaits it at the moment the
   * request is in flight (after claiming an idempotency key); when `run` does not, the handler
   * waits before answering.
   */
  delay(): Promise<void> | undefined;
}

/** One entry of the route table. */
export interface Route {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path template, e.g. `/v0/webhook_subscriptions/{subscription_id}`. */
  readonly path: string;
  /** The key each template parameter is decoded under (by default its own name). */
  readonly params?: readonly PathParam[];
  readonly area: RouteArea;
  /** What the route does, in one line: the index (`GET /__mock`) lists every route that has one outside the API. */
  readonly summary?: string;
  /** The operation an API route serves (faults target it; the request log names it). */
  readonly operation?: OperationId;
  /** True for a route that takes no API key (a document, the console's files, the inbox's receiver). */
  readonly public?: true;
  /**
   * True for a route that changes only what a session holds, never the state a state file keeps
   * (the faults armed): it is answered while the file cannot be written, as a read is.
   */
  readonly session?: true;
  /**
   * Its body: a schema validates the JSON body (400 listing every failing field); `"json"`
   * parses it and leaves validation to `run`; `"raw"` hands over the bytes. Without it a route
   * (other than GET) takes no body: none, an empty one, or `{}`.
   */
  readonly body?: z.ZodMiniType | "json" | "raw";
  /** Its query parameters, validated (400 listing every failing field). */
  readonly query?: z.ZodMiniObject;
  /** Answers only the requests this accepts (the console's root redirect: browser navigations); any other is as if the route were not there. */
  accepts?(request: MockRequest): boolean;
  /** Answers the request. */
  run(context: RouteContext): Reply | Promise<Reply>;
}

/**
 * Whether a route may change the state a state file keeps, so that it needs the file written:
 * any but a read, a public route (the inbox's receiver, whose messages are not kept) and a route
 * of the session (arming a fault).
 */
export const mayWriteState = (route: Pick<Route, "method" | "public" | "session">): boolean =>
  route.method !== "GET" && route.public !== true && route.session !== true;
