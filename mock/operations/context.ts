/**
 * What an API operation gets and gives back: the request routed and authenticated (the caller's
 * tenant scopes every lookup), its body validated by its row's schema, and a reply. An operation
 * that writes awaits `delay` once the request is in flight (after claiming an idempotency key),
 * then writes. And what an operation's behaviour (`mock/operations/index.ts`) holds besides: the
 * banner's example and what a recording keeps of an answer.
 * @module
 */
import type { OperationRow } from "../../src/operation-row.js";
import type { Reply } from "../pipeline/reply.js";
import type { RouteContext } from "../pipeline/route.js";
import type { Store } from "../state/store.js";
import type { TenantData } from "../state/tenant-data.js";

/** One authenticated, routed API request: its body is the row's request schema's output (validated once, by the body step). */
export interface OperationContext extends Omit<RouteContext, "tenant" | "request" | "query"> {
  readonly store: Store;
  /** The caller's tenant: every lookup stays inside it. */
  readonly tenant: TenantData;
}

/** An API operation: the reply to one request. */
export type Operation = (context: OperationContext) => Reply | Promise<Reply>;

/**
 * What `--record` keeps of a real deployment's answers, by resource (mock/server/recording.ts):
 * each call takes an answer's body as it came (checked there) and says whether it kept anything.
 */
export interface RecordingBook {
  /** A page as the API shows it (with its published version). */
  page(view: unknown): boolean;
  /** A webhook subscription as the API shows it. */
  subscription(view: unknown): boolean;
  /** The prospect a prospect log entry went to, with the identifiers the request sent. */
  prospect(log: unknown, sent: unknown): boolean;
}

/** A successful exchange the proxy saw: the body sent, and the body answered (parsed JSON). */
export interface RecordedExchange {
  readonly requestBody: unknown;
  readonly responseBody: unknown;
}

/** An operation's behaviour, its entry in `mock/operations/index.ts`. */
export interface OperationBehaviour {
  /** The reply to one request. */
  readonly run: Operation;
  /**
   * The start banner's example of the operation: the body its `curl` line sends (for an operation
   * that takes one) and a note after its summary. The path's parameters are the demo data's IDs
   * (`mock/server/demo.ts`), each under its parameter's key.
   */
  readonly example?: { readonly body?: object; readonly note?: string };
  /** What a recording (`--record`) keeps of a successful answer; nothing without it. */
  record?(book: RecordingBook, exchange: RecordedExchange): boolean;
}

/** An operation the mock serves: its row of the operation table and its behaviour. */
export interface MockOperation extends OperationBehaviour {
  readonly row: OperationRow;
}
