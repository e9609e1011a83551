/**
 * What an API operation gets and gives back: the request routed and authenticated (the caller's
 * tenant scopes every lookup), its JSON body parsed, and a reply. An operation that writes awaits
 * `delay` once the request is in flight (after claiming an idempotency key), then writes.
 * @module
 */
import type { FieldError } from "../../src/schemas/index.js";
import { invalidFields, type Reply } from "../pipeline/reply.js";
import type { Store } from "../state/store.js";
import type { TenantData } from "../state/tenant-data.js";

/** One authenticated, routed API request. */
export interface OperationContext {
  readonly store: Store;
  /** The caller's tenant: every lookup stays inside it. */
  readonly tenant: TenantData;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  readonly requestId: string;
  /** The JSON body as received (not yet validated), or undefined for a route without one. */
  readonly body: unknown;
  /** Waits out the request's injected latency (the request is in flight meanwhile); `undefined` when there is none. */
  delay(): Promise<void> | undefined;
}

/** An API operation: the reply to one request. */
export type Operation = (context: OperationContext) => Reply | Promise<Reply>;

/** The 400 reply listing every failing field of the body. */
export function invalidBody(context: OperationContext, errors: FieldError[]): Reply {
  return invalidFields(context.requestId, errors);
}
