/**
 * What an API operation gets and gives back: the request routed and authenticated (the caller's
 * tenant scopes every lookup), its JSON body parsed, and a reply. An operation that writes awaits
 * `delay` once the request is in flight (after claiming an idempotency key), then writes.
 * @module
 */
import type { Reply } from "../pipeline/reply.js";
import type { RouteContext } from "../pipeline/route.js";
import type { Store } from "../state/store.js";
import type { TenantData } from "../state/tenant-data.js";

/** One authenticated, routed API request: its body is the JSON as received, not yet validated. */
export interface OperationContext extends Omit<RouteContext, "tenant" | "request" | "query"> {
  readonly store: Store;
  /** The caller's tenant: every lookup stays inside it. */
  readonly tenant: TenantData;
}

/** An API operation: the reply to one request. */
export type Operation = (context: OperationContext) => Reply | Promise<Reply>;
