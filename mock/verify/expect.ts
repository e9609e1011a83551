/**
 * The checks contract rules are made of: each throws a {@link RuleFailure} naming what was
 * expected and carrying the exchange that showed otherwise.
 * @module
 */
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import type { OperationId } from "../../src/operations.js";
import { PROBLEM_CONTENT_TYPE } from "../../src/schemas/index.js";
import { answerViolations } from "./exchange.js";
import { type Exchange, expectThat, RuleFailure, shown } from "./rule.js";

/** The answer has this status. */
export function expectStatus(exchange: Exchange, status: number): void {
  expectThat(exchange.answer.status === status, `expected status ${status}, got ${exchange.answer.status}`, exchange);
}

/** The answer keeps the operation's contract (status, headers, body schema): see {@link answerViolations}. */
export function expectContract(exchange: Exchange, operation: OperationId): void {
  const found = answerViolations(operation, exchange.answer, exchange.request.body);
  expectThat(found.length === 0, `the answer breaks the contract of ${operation}: ${found.join("; ")}`, exchange);
}

/** The request was refused: a 4xx answer, and nothing was done. */
export function expectRefused(exchange: Exchange): void {
  const { status } = exchange.answer;
  expectThat(status >= 400 && status < 500, `expected the request to be refused (4xx), got ${status}`, exchange);
}

/** An RFC 9457 problem answer with this status and code, its `requestId` the `x-request-id` header. */
export function expectProblem(exchange: Exchange, status: number, code: string): void {
  const { answer } = exchange;
  expectThat(
    answer.status === status && answer.body?.code === code,
    `expected ${status} ${code}, got ${answer.status} ${shown(answer.body?.code ?? answer.text)}`,
    exchange,
  );
  const type = answer.headers.get("content-type")?.split(";")[0]?.trim();
  expectThat(type === PROBLEM_CONTENT_TYPE, `expected content-type ${PROBLEM_CONTENT_TYPE}, got ${shown(type)}`, exchange);
  expectThat(
    answer.body.requestId === answer.headers.get(REQUEST_ID_HEADER),
    `expected requestId to equal the ${REQUEST_ID_HEADER} header`,
    exchange,
  );
}

/** A 400 `invalid_request` listing exactly these `[pointer, code]` field errors (any order). */
export function expectFieldErrors(exchange: Exchange, expected: readonly (readonly [string, string])[]): void {
  expectProblem(exchange, 400, "invalid_request");
  const errors: unknown = exchange.answer.body.errors;
  const actual = Array.isArray(errors) ? errors.map((error: { pointer?: unknown; code?: unknown }) => `${error.pointer} ${error.code}`).sort() : [];
  const wanted = expected.map(([pointer, code]) => `${pointer} ${code}`).sort();
  expectThat(shown(actual) === shown(wanted), `expected field errors ${wanted.join(", ")}; got ${actual.join(", ") || "none"}`, exchange);
}

/** Two values are equal as JSON. */
export function expectEqual(actual: unknown, expected: unknown, what: string, exchange: Exchange): void {
  expectThat(JSON.stringify(actual) === JSON.stringify(expected), `expected ${what} ${shown(expected)}, got ${shown(actual)}`, exchange);
}

/** A rule that cannot run on this deployment's data, and why (reported as skipped, never passed). */
export class RuleSkipped extends Error {
  /** @param reason - what is missing, and what would run the rule */
  constructor(reason: string) {
    super(reason);
    this.name = "RuleSkipped";
  }
}

export { RuleFailure };
