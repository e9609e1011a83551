/**
 * The schema check of one exchange with the API: whether a request and its answer keep the
 * operation's contract (the status, the headers, the success body's schema, the problem body).
 * One function for the contract rules of `verify` and for the validating proxy, over the operation
 * table and the spec's Zod schemas (src/), so the two can never judge differently.
 * @module
 */
import type * as z from "zod/mini";
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import type { OperationRow } from "../../src/operation-row.js";
import { OPERATION_TABLE, type OperationId } from "../../src/operation-table.js";
import { PROBLEM_CONTENT_TYPE, ProblemDetails, toFieldErrors } from "../../src/schemas/index.js";
import { closedLists } from "./closed-lists.js";

/** What the check reads of an answer. */
export interface CheckedAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body parsed as JSON, or its text when it is not JSON. */
  readonly body: unknown;
  /** The answer to a `HEAD` request: its status and headers are checked, its body (none) is not. */
  readonly head?: boolean;
}

/** The row of the operation table of an operation. */
export function tableRow(operation: OperationId): OperationRow {
  return OPERATION_TABLE.find((route) => route.name === operation)!;
}

/** Every failing field of `value` under `schema`, as `/pointer code` (empty when it parses). */
export function schemaProblems(schema: z.ZodMiniType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : toFieldErrors(parsed.error.issues, value).map((error) => `${error.pointer || "/"} ${error.code}`);
}

/**
 * What a request body breaks of the operation's request schema (the spec's field rules).
 * @param operation - the operation
 * @param body - the parsed JSON body (`undefined`: none)
 * @returns one line per failing field, e.g. `request /source too_long`; empty when it is valid
 */
export function requestViolations(operation: OperationId, body: unknown): string[] {
  const { request } = tableRow(operation);
  if (request === undefined) return [];
  return schemaProblems(request.schema, body).map((problem) => `request ${problem}`);
}

const isJson = (type: string | null) => type !== null && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type);

/**
 * What an answer breaks of the operation's contract: a status the operation never answers, a
 * missing `x-request-id`, a success body outside the result schema, a problem body outside RFC
 * 9457's shape (its `status` and `requestId` agreeing with the answer), or a success for a request
 * that breaks the request schema. A `HEAD` answer has no body: its status and headers only.
 * @param operation - the operation the request was for
 * @param answer - the answer
 * @param requestBody - the request's parsed JSON body, when it had one
 * @returns one line per violation; empty when the answer keeps the contract
 */
export function answerViolations(operation: OperationId, answer: CheckedAnswer, requestBody?: unknown): string[] {
  const route = tableRow(operation);
  const found: string[] = [];
  const { status, headers, body, head = false } = answer;
  const requestId = headers.get(REQUEST_ID_HEADER);
  if (requestId === null) found.push(`no ${REQUEST_ID_HEADER} header`);
  const type = headers.get("content-type");
  if (status === route.success) {
    if (!isJson(type)) found.push(`status ${status} with content-type ${type ?? "none"}, not JSON`);
    // The spec's closed lists (event kinds), not the SDK's forward-compatible reading of them.
    if (!head) found.push(...schemaProblems(closedLists(route.result), body).map((problem) => `body ${problem}`));
    if (route.request !== undefined && requestViolations(operation, requestBody).length > 0)
      found.push(`status ${status} for a request the schema refuses (${requestViolations(operation, requestBody).join(", ")})`);
  } else if ((route.errors as readonly number[]).includes(status)) {
    if (type?.split(";")[0]?.trim().toLowerCase() !== PROBLEM_CONTENT_TYPE)
      found.push(`status ${status} with content-type ${type ?? "none"}, not ${PROBLEM_CONTENT_TYPE}`);
    const problems = head ? [] : schemaProblems(ProblemDetails, body);
    found.push(...problems.map((problem) => `problem body ${problem}`));
    if (!head && problems.length === 0) {
      const problem = body as ProblemDetails;
      if (problem.status !== status) found.push(`problem body /status ${problem.status}, but the answer's status is ${status}`);
      if (requestId !== null && problem.requestId !== requestId) found.push(`problem body /requestId differs from the ${REQUEST_ID_HEADER} header`);
    }
  } else {
    found.push(`status ${status}, which ${operation} never answers (${[route.success, ...route.errors].join(", ")})`);
  }
  return found;
}
