/**
 * The checks contract rules are made of: each throws a {@link RuleFailure} naming what was
 * expected and carrying the exchange that showed otherwise.
 * @module
 */
import { REQUEST_ID_HEADER } from "../../src/headers.js";
import type { OperationId } from "../../src/operation-table.js";
import { PROBLEM_CONTENT_TYPE, PROBLEM_STATUSES } from "../../src/schemas/problem.js";
import { answerViolations } from "./exchange.js";
import { type Exchange, expectThat, RuleFailure, RuleSkipped, shown } from "./rule.js";

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

/** The request was accepted: the operation's success status. */
export function expectAccepted(exchange: Exchange, status: number): void {
  expectThat(exchange.answer.status === status, `expected the request to be accepted (${status}), got ${exchange.answer.status}`, exchange);
}

/** The media type of an answer, lower case, without parameters. */
export const mediaType = (exchange: Exchange): string | undefined => exchange.answer.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();

/** A problem answer with this status and code, as `application/problem+json`, its `requestId` the `x-request-id` header. */
export function expectProblem(exchange: Exchange, status: number, code: string): void {
  const { answer } = exchange;
  expectThat(
    answer.status === status && answer.body?.code === code,
    `expected ${status} ${code}, got ${answer.status} ${shown(answer.body?.code ?? answer.text)}`,
    exchange,
  );
  expectThat(
    mediaType(exchange) === PROBLEM_CONTENT_TYPE,
    `expected content-type ${PROBLEM_CONTENT_TYPE}, got ${shown(mediaType(exchange))}`,
    exchange,
  );
  expectThat(
    answer.body.requestId === answer.headers.get(REQUEST_ID_HEADER),
    `expected requestId to equal the ${REQUEST_ID_HEADER} header`,
    exchange,
  );
}

const PROBLEM_FIELDS = new Set(["type", "title", "status", "detail", "code", "requestId", "errors"]);
const POINTER = /^(?:\/(?:[^~/]|~[01])*)*$/;

/**
 * What an error answer breaks of the problem body docs/behaviour.md decides (RFC 9457): the media
 * type, exactly the members `type` (the code's URN), `title` (the code's), `status` (the answer's),
 * `detail`, `code` (one of the API's, with this status), `requestId` (the `x-request-id` header)
 * and, for field problems, `errors` (each a JSON Pointer, a detail and a code).
 * @param exchange - an exchange whose answer is a 4xx or 5xx
 * @returns one line per violation; empty when the body is such a problem
 */
export function problemViolations(exchange: Exchange): string[] {
  const { answer } = exchange;
  const found: string[] = [];
  if (mediaType(exchange) !== PROBLEM_CONTENT_TYPE) found.push(`content-type ${shown(mediaType(exchange))}, not ${PROBLEM_CONTENT_TYPE}`);
  const body = answer.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return [...found, "the body is not a JSON object"];
  const extra = Object.keys(body).filter((name) => !PROBLEM_FIELDS.has(name));
  if (extra.length > 0) found.push(`members beyond the problem's: ${extra.join(", ")}`);
  const known = PROBLEM_STATUSES[body.code as keyof typeof PROBLEM_STATUSES] as { status: number; title: string } | undefined;
  if (known === undefined) found.push(`code ${shown(body.code)} is none of the API's`);
  else if (known.status !== answer.status) found.push(`code ${body.code} answered with status ${answer.status}, not ${known.status}`);
  if (body.type !== `urn:prospectkit:problem:${body.code}`) found.push(`type ${shown(body.type)}, not urn:prospectkit:problem:${body.code}`);
  if (known !== undefined && body.title !== known.title) found.push(`title ${shown(body.title)}, not ${shown(known.title)}`);
  if (body.status !== answer.status) found.push(`status ${shown(body.status)} in a ${answer.status} answer`);
  if (typeof body.detail !== "string" || body.detail.trim() === "") found.push(`detail ${shown(body.detail)}, not a sentence`);
  if (typeof body.requestId !== "string" || body.requestId !== answer.headers.get(REQUEST_ID_HEADER))
    found.push(`requestId ${shown(body.requestId)} is not the ${REQUEST_ID_HEADER} header`);
  if (body.errors !== undefined) {
    const errors: unknown = body.errors;
    const wellFormed = (error: unknown) => {
      const { pointer, detail, code, ...rest } = (error ?? {}) as Record<string, unknown>;
      return (
        typeof pointer === "string" &&
        POINTER.test(pointer) &&
        typeof detail === "string" &&
        typeof code === "string" &&
        Object.keys(rest).length === 0
      );
    };
    if (!Array.isArray(errors) || errors.length === 0 || !errors.every(wellFormed))
      found.push(`errors ${shown(errors)} is not a list of { pointer, detail, code }`);
  }
  return found;
}

/** The field errors of a problem answer as `pointer code`, sorted. */
export function fieldErrorsOf(exchange: Exchange): string[] {
  const errors: unknown = exchange.answer.body?.errors;
  return Array.isArray(errors) ? errors.map((error: { pointer?: unknown; code?: unknown }) => `${error?.pointer} ${error?.code}`).sort() : [];
}

/** A 400 `invalid_request` listing exactly these `[pointer, code]` field errors (any order). */
export function expectFieldErrors(exchange: Exchange, expected: readonly (readonly [string, string])[]): void {
  expectProblem(exchange, 400, "invalid_request");
  const actual = fieldErrorsOf(exchange);
  const wanted = expected.map(([pointer, code]) => `${pointer} ${code}`).sort();
  expectThat(shown(actual) === shown(wanted), `expected field errors ${wanted.join(", ")}; got ${actual.join(", ") || "none"}`, exchange);
}

/** A 400 `invalid_request` whose field errors point at exactly these pointers (any codes). */
export function expectFieldPointers(exchange: Exchange, pointers: readonly string[]): void {
  expectProblem(exchange, 400, "invalid_request");
  const actual = [...new Set(fieldErrorsOf(exchange).map((error) => error.slice(0, error.lastIndexOf(" "))))].sort();
  const wanted = [...pointers].sort();
  expectThat(shown(actual) === shown(wanted), `expected field errors at ${wanted.join(", ")}; got ${actual.join(", ") || "none"}`, exchange);
}

/** Two values are equal as JSON. */
export function expectEqual(actual: unknown, expected: unknown, what: string, exchange: Exchange): void {
  expectThat(JSON.stringify(actual) === JSON.stringify(expected), `expected ${what} ${shown(expected)}, got ${shown(actual)}`, exchange);
}

/** A body without its `requestId`, to compare two problems of different requests. */
export function withoutRequestId(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return body;
  const { requestId: _, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** The one timestamp form docs/behaviour.md decides: `YYYY-MM-DDTHH:mm:ss.sssZ`, a real calendar date and time. */
export function isExactTimestamp(value: unknown): boolean {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

export { RuleFailure, RuleSkipped };
