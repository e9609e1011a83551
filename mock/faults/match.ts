/**
 * Faults aimed at one request: a fault's `match` names path parameters and top-level body fields
 * of its operation, each with the value a request must carry for the fault to apply to it. The
 * fields a match may name come from the operation table (the parameters' keys, the request
 * schema's fields), so a new operation or field is matchable without a change here.
 * @module
 */
import * as z from "zod/mini";
import { OPERATION_TABLE, type OperationId } from "../../src/operation-table.js";

/** A value a match compares with `===`, as the request sent it (a path parameter: decoded); null matches a field sent as null. */
export type FaultMatchValue = string | number | boolean | null;

/**
 * Which requests of its operation a fault applies to: every named path parameter (`pageGroupId`,
 * `pageId`, `subscriptionId`) and top-level body field (`source`, `email`, `active`...) equal to
 * the value given. Needs `operation`.
 */
export type FaultMatch = Readonly<Record<string, FaultMatchValue>>;

/** A match as JSON: field name to a string, number, boolean or null. */
export const FaultMatchSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** The type of a body field a match compares: what its value must be. */
export type MatchFieldType = "string" | "number" | "boolean";

/** The kinds of schema whose values a match compares (an object or a list, such as `payload` or `events`, is not one). */
const SCALARS: Readonly<Record<string, MatchFieldType>> = { string: "string", enum: "string", number: "number", int: "number", boolean: "boolean" };

/** The type of a body field a match can compare (its schema once optional, default and nullable wrappers are off), or undefined. */
function scalarType(schema: z.ZodMiniType): MatchFieldType | undefined {
  let def = schema._zod.def as { type: string; innerType?: z.ZodMiniType };
  while (def.innerType !== undefined) def = def.innerType._zod.def as typeof def;
  return SCALARS[def.type];
}

/** The fields a match may name, per operation: its path parameters' keys, and its body's top-level scalar fields with their types. */
export const MATCH_FIELDS: Readonly<
  Record<OperationId, { readonly params: readonly string[]; readonly body: Readonly<Record<string, MatchFieldType>> }>
> = /* @__PURE__ */ Object.fromEntries(
  OPERATION_TABLE.map((row) => {
    const shape = row.request === undefined ? {} : ((row.request.schema as z.ZodMiniObject).shape as Record<string, z.ZodMiniType>);
    const body = Object.entries(shape).flatMap(([name, field]) => {
      const type = scalarType(field);
      return type === undefined ? [] : [[name, type] as const];
    });
    return [row.name, { params: row.params.map((param) => param.key), body: Object.fromEntries(body) }];
  }),
) as never;

/**
 * The JSON Schema of what {@link compileMatch} accepts, beside a fault's other fields: no match
 * or an empty one, or one branch per operation naming only its fields (`propertyNames`), each with a
 * value of its type (a path parameter a string; a body field its type, or null). The control API's
 * OpenAPI document states it, so a client validating with the document agrees with the server.
 */
export function matchJsonSchema(): Record<string, unknown> {
  const branches = Object.entries(MATCH_FIELDS).map(([operation, fields]) => ({
    required: ["operation"],
    properties: {
      operation: { const: operation },
      match: {
        type: "object",
        propertyNames: { enum: [...fields.params, ...Object.keys(fields.body)] },
        properties: {
          ...Object.fromEntries(fields.params.map((name) => [name, { type: "string" }])),
          ...Object.fromEntries(Object.entries(fields.body).map(([name, type]) => [name, { type: [type, "null"] }])),
        },
      },
    },
  }));
  // No match, or an empty one, with any operation (`properties` applies only to a field that is there).
  return { anyOf: [{ properties: { match: { maxProperties: 0 } } }, ...branches] };
}

/** A checked match, split by where its fields are read. */
export interface CompiledMatch {
  readonly params: readonly (readonly [string, FaultMatchValue])[];
  readonly body: readonly (readonly [string, FaultMatchValue])[];
}

/** What is wrong with one field of a match, for a `TypeError` in process and a field error over HTTP. */
export interface MatchProblem {
  /** The field of the match (empty: the match as a whole). */
  readonly field: string;
  readonly detail: string;
}

/**
 * Checks a match against its operation and splits it by where its fields are read.
 * @param operation - the fault's operation (`"all"` takes no match)
 * @param match - the fields and values
 * @returns the compiled match, or the problems (every field that does not exist on the operation or has a wrong value)
 */
export function compileMatch(operation: OperationId | "all", match: FaultMatch): CompiledMatch | MatchProblem[] {
  const entries = Object.entries(match);
  if (operation === "all") {
    return entries.length === 0
      ? { params: [], body: [] }
      : [{ field: "", detail: "a match needs an operation: name the one whose requests it matches" }];
  }
  const fields = MATCH_FIELDS[operation];
  const problems: MatchProblem[] = [];
  const params: [string, FaultMatchValue][] = [];
  const body: [string, FaultMatchValue][] = [];
  for (const [field, value] of entries) {
    if (fields.params.includes(field)) {
      if (typeof value === "string") params.push([field, value]);
      else problems.push({ field, detail: `${field} is a path parameter of ${operation}: its value must be a string` });
    } else if (Object.hasOwn(fields.body, field)) {
      const type = fields.body[field];
      if (typeof value === type || value === null) body.push([field, value]);
      else problems.push({ field, detail: `${field} of ${operation} is a ${type}: compare it with a ${type}` });
    } else {
      const known = [...fields.params, ...Object.keys(fields.body)];
      problems.push({ field, detail: `${operation} has no field ${JSON.stringify(field)} to match (it has ${known.join(", ") || "none"})` });
    }
  }
  return problems.length > 0 ? problems : { params, body };
}

/** Whether a request's path parameters satisfy a match. */
export function paramsMatch(match: CompiledMatch, params: Readonly<Record<string, string>>): boolean {
  return match.params.every(([field, value]) => params[field] === value);
}

/** Whether a request's parsed JSON body satisfies a match (a body that is not an object satisfies none that names a field). */
export function bodyMatches(match: CompiledMatch, body: unknown): boolean {
  if (match.body.length === 0) return true;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  return match.body.every(([field, value]) => Object.hasOwn(body, field) && (body as Record<string, unknown>)[field] === value);
}
