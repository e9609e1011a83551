/**
 * What an operation gets and gives back. An operation validates and decides without writing;
 * if the request is accepted it returns a `Pending` write. The pipeline may wait (injected
 * latency) before committing it, and only then is the request "in flight".
 * @module
 */
import type { FieldError } from "../../src/schemas/index.js";
import type { BodyResult } from "../http/body.js";
import type { MaybePromise } from "../http/maybe-async.js";
import { invalidFields, problem, type Reply } from "../http/reply.js";
import type { Store } from "../state/store.js";
import type { TenantData } from "../state/tenant-data.js";

/** One authenticated, routed request. */
export interface OperationContext {
  readonly store: Store;
  /** The caller's tenant: every lookup stays inside it. */
  readonly tenant: TenantData;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  readonly requestId: string;
  /** Reads the JSON body (and keeps it for the request log); at once when the bytes are already here. */
  readBody(): MaybePromise<BodyResult>;
}

/** An accepted write, not yet done. */
export interface Pending {
  /** Called when the answer will wait (injected latency): the request is in flight from now on. */
  hold(): void;
  /** Writes (deciding again on anything that may have changed since) and returns the answer. */
  commit(): Reply;
}

/** An operation: answers at once (an error or a read), or returns the pending write of an accepted request. */
export type Operation = (context: OperationContext) => MaybePromise<Reply | Pending>;

/** Whether an operation's outcome is a pending write. */
export function isPending(outcome: Reply | Pending): outcome is Pending {
  return "commit" in outcome;
}

/** The problem reply for a refused body. */
export function bodyProblem(context: OperationContext, result: Extract<BodyResult, { ok: false }>): Reply {
  return problem(context.requestId, result.code, result.detail, result.errors ? { errors: result.errors } : {});
}

/** The 400 reply listing every failing field of the body. */
export function invalidBody(context: OperationContext, errors: FieldError[]): Reply {
  return invalidFields(context.requestId, errors);
}
