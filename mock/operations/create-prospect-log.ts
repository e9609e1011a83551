/**
 * `POST /v0/prospect_logs` (spec 4.1): validation, idempotency and prospect resolution are the
 * state's `prepareProspectLog`; this maps its outcome to HTTP.
 * @module
 */
import { REPLAYED_HEADER } from "../../src/headers.js";
import { andThen } from "../http/maybe-async.js";
import { problem, type Reply } from "../http/reply.js";
import { type ProspectLogDecision, prepareProspectLog } from "../state/prospect-logs.js";
import { bodyProblem, invalidBody, type Operation, type OperationContext } from "./context.js";

function toReply(context: OperationContext, decision: ProspectLogDecision): Reply {
  switch (decision.kind) {
    case "created":
      return { status: 201, body: decision.result };
    case "invalid":
      return invalidBody(context, decision.errors);
    case "replay":
      return { status: 201, body: decision.result, headers: { [REPLAYED_HEADER]: "true" } };
    case "in-progress":
      return problem(
        context.requestId,
        "idempotency_request_in_progress",
        "A request with this idempotency key is still in progress; retry once it has completed.",
      );
    case "reused":
      return problem(
        context.requestId,
        "idempotency_key_reused",
        "This idempotency key was already used with a different request body; use a new key for a new request.",
      );
  }
}

/** Creates a prospect log entry: 201 with the result, or 400/409/422. */
export const createProspectLog: Operation = (context) =>
  andThen(context.readBody(), (body) => {
    if (!body.ok) return bodyProblem(context, body);
    const prepared = prepareProspectLog(context.store, context.tenant, body.value);
    if (prepared.early !== null) return toReply(context, prepared.early);
    return { hold: prepared.hold, commit: () => toReply(context, prepared.commit()) };
  });
