/**
 * How any operation's input becomes its request, from its row alone: the path parameters are
 * always checked and URL-encoded into the template, the body (the input's other fields) is
 * checked when asked and converted by the row's body. No operation has code of its own here.
 * @module
 */
import * as z from "zod/mini";
import { fillPath, type OperationRow } from "./operation-row.js";
import { OpaqueId } from "./schemas/primitives.js";
import { isWellFormed } from "./serialize.js";
import { problems, rejectInvalid } from "./validate.js";

/** The path of a call, and its body if it has one (a JSON-safe copy of the input, made by the row's body). */
export interface PreparedRequest {
  path: string;
  body?: object;
}

/**
 * A path parameter: a non-empty string (the spec shows no format) that is not `.` or `..`,
 * which no URL encoding can keep from being read as "this" or "parent" folder.
 */
const PathId = /* @__PURE__ */ OpaqueId.check(
  z.refine((id) => id !== "." && id !== "..", { error: 'must not be "." or ".."', params: { code: "invalid_value" } }),
  z.refine(isWellFormed, { error: "must be valid Unicode (it has a lone surrogate)", params: { code: "invalid_string" } }),
);

/** The schema of a row's path parameters, made once per row on its first call. */
const pathSchemas = /* @__PURE__ */ new WeakMap<OperationRow, z.ZodMiniType>();

function pathSchemaOf(row: OperationRow): z.ZodMiniType {
  let schema = pathSchemas.get(row);
  if (schema === undefined) {
    schema = z.object(Object.fromEntries(row.params.map((param) => [param.key, PathId])));
    pathSchemas.set(row, schema);
  }
  return schema;
}

/** The input's fields that fill no path parameter: the body (the input itself for an operation without parameters). */
function bodyFields(row: OperationRow, input: unknown): unknown {
  if (row.params.length === 0) return input;
  const fields: Record<string, unknown> = { ...(input as object) };
  for (const param of row.params) delete fields[param.key];
  return fields;
}

/**
 * Checks an operation's input (path parameters always, the body when `validate`) and builds its
 * request.
 * @param row - the operation's row
 * @param input - the caller's input
 * @param validate - whether the body is checked against the row's request schema
 * @returns the path and the body to send
 * @throws {RequestValidationError} listing every invalid field, or a value JSON cannot carry
 * @internal
 */
export function prepare(row: OperationRow, input: unknown, validate: boolean): PreparedRequest {
  const { name, request } = row;
  const errors = row.params.length === 0 ? [] : problems(pathSchemaOf(row), input);
  const fields = request === undefined ? undefined : bodyFields(row, input);
  rejectInvalid(name, validate && request !== undefined ? [...errors, ...problems(request.schema, fields)] : errors);
  const path = fillPath(row, (param) => encodeURIComponent((input as Record<string, string>)[param.key]!));
  return request === undefined ? { path } : { path, body: request.encode(name, fields, row.retry) };
}
