/**
 * Zod schemas as the JSON Schema (2020-12, OpenAPI 3.1's dialect) of an OpenAPI document:
 * `io: "input"` for what a client sends (defaults make a field optional), `io: "output"` for
 * what the server answers.
 * @module
 */
import * as z from "zod/mini";
import { JsonObjectSchema } from "../../src/schemas/index.js";

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/** Which side of a schema: what is sent (`input`) or what is received (`output`). */
export type SchemaSide = "input" | "output";

/**
 * Converts one schema. The free-form JSON object (`payload`) is a custom check in Zod, which has
 * no JSON Schema of its own: it becomes `{ "type": "object" }`.
 * @param schema - a schema from `src/schemas` or `mock/control/schemas`
 * @param io - `input` for request bodies, `output` for responses
 * @returns the JSON Schema, without `$schema` (the document declares its dialect once)
 */
export function toJsonSchema(schema: z.ZodMiniType, io: SchemaSide): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    target: "draft-2020-12",
    override(context) {
      if (context.zodSchema === JsonObjectSchema) {
        for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
        context.jsonSchema.type = "object";
      }
    },
  }) as JsonSchema;
  return rest;
}
