/**
 * `POST /v0/prospect_logs` (spec 4.1): validation, idempotency and prospect resolution are the
 * state's `prepareProspectLog`; this maps its outcome to HTTP.
 * @module
 */
import { problem } from "../http/reply.js";
import { prepareProspectLog } from "../state/prospect-logs.js";
import { bodyProblem, invalidFields, type Operation } from "./context.js";

/** Header set on a response replayed for a repeated idempotency key. */
export const REPLAYED_HEADER = "idempotent-replayed";

/** Creates a prospect log entry: 201 with the result, or 400/409/422. */
export const createProspectLog: Operation = async (context) => {
  const body = await context.readBody();
  if (!body.ok) return bodyProblem(context, body);
  const prepared = prepareProspectLog(context.store, context.tenant, body.value);
  switch (prepared.kind) {
    case "invalid":
      return invalidFields(context, prepared.errors);
    case "replay":
      return { status: 201, body: prepared.result, headers: { [REPLAYED_HEADER]: "true" } };
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
    case "ready":
      return () => ({ status: 201, body: prepared.commit() });
  }
};
