/**
 * `POST /v0/prospect_logs` (spec 4.1): validation, idempotency and prospect resolution are the
 * state's `claimProspectLog`; this maps its outcome to HTTP.
 * @module
 */
import { REPLAYED_HEADER } from "../../src/headers.js";
import { invalidFields, problem, type Reply } from "../pipeline/reply.js";
import { claimProspectLog, type ProspectLogRefusal } from "../state/prospect-logs.js";
import type { Operation, OperationBehaviour, OperationContext } from "./context.js";

function refusalReply(context: OperationContext, refusal: ProspectLogRefusal): Reply {
  switch (refusal.kind) {
    case "invalid":
      return invalidFields(context.requestId, refusal.errors);
    case "replay":
      return { status: 201, body: refusal.result, headers: { [REPLAYED_HEADER]: "true" } };
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
export const run: Operation = async (context) => {
  const claimed = claimProspectLog(context.store, context.tenant, context.body);
  if (claimed.kind !== "claimed") return refusalReply(context, claimed);
  try {
    const waiting = context.delay();
    if (waiting !== undefined) await waiting;
    return { status: 201, body: claimed.write() };
  } finally {
    claimed.release();
  }
};

/** The banner's example: a sign-up from a CRM, naming the prospect by email. */
export const example: OperationBehaviour["example"] = {
  body: { source: "crm", payload: { event: "signed_up", plan: "team" }, email: "ada@example.com", name: "Ada Lovelace" },
};

/** A recording keeps the prospect an entry went to, with the identifiers the request sent. */
export const record: OperationBehaviour["record"] = (book, { requestBody, responseBody }) => book.prospect(responseBody, requestBody);
