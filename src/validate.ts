import type * as z from "zod/mini";
import { RequestValidationError, ResponseValidationError } from "./errors/failures.js";
import type { ValidationIssueEvent } from "./hooks.js";
import type { Settings } from "./options.js";
import { type FieldError, toFieldErrors } from "./schemas/index.js";

/**
 * Every problem `value` has against `schema`, as the API's field errors; empty when valid.
 * @internal
 */
export function problems(schema: z.ZodMiniType, value: unknown): FieldError[] {
  const result = schema.safeParse(value);
  return result.success ? [] : toFieldErrors(result.error.issues, value);
}

/**
 * Throws when `errors` is not empty.
 * @throws {RequestValidationError} listing every error
 * @internal
 */
export function rejectInvalid(operation: string, errors: FieldError[]): void {
  if (errors.length > 0) throw new RequestValidationError(operation, errors);
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const NOT_JSON: FieldError = { pointer: "", code: "invalid_json", detail: "the body is not valid JSON" };

/**
 * Parses a successful response body and checks it against `schema` in the call's mode. Unknown
 * fields and unknown event kinds pass (the response schemas are loose). The data returned is
 * the body as parsed, never a copy; what goes into an error, the `onValidationIssue` event or
 * the log line passes through the client's redactor first.
 *
 * @param settings - the call's settings (mode, callback, logger, redactor)
 * @param operation - the operation's name
 * @param schema - the response schema
 * @param response - the response
 * @param text - its body text
 * @param requestId - its `x-request-id`
 * @returns the parsed body
 * @throws {ResponseValidationError} when the body is not JSON, or breaks the schema in `"strict"` mode
 * @internal
 */
export function checkResponse(
  settings: Settings,
  operation: string,
  schema: z.ZodMiniType,
  response: Response,
  text: string,
  requestId: string | undefined,
): unknown {
  const { status } = response;
  const { validateResponses: mode, redact } = settings;
  const fail = (issues: FieldError[]) =>
    new ResponseValidationError({ operation, issues: redact.json(issues), body: redact.text(text), status, requestId });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail([NOT_JSON]);
  }
  if (mode === "off") return body;
  const issues = problems(schema, body);
  if (issues.length > 0) {
    const shown = redact.holds(text) ? parseOr(redact.text(text)) : body;
    const event: ValidationIssueEvent = { operation, issues: redact.json(issues), body: shown, status, requestId };
    if (settings.onValidationIssue) settings.onValidationIssue(event);
    else if (mode === "warn") (settings.logger ?? console).warn(`prospectkit: unexpected ${operation} response`, event);
    if (mode === "strict") throw fail(issues);
  }
  return body;
}
