/**
 * Zod schemas as the JSON Schema (2020-12, OpenAPI 3.1's dialect) of an OpenAPI document:
 * `io: "input"` for what a client sends (defaults make a field optional), `io: "output"` for
 * what the server answers.
 * @module
 */
import * as z from "zod/mini";
import {
  HttpUrl,
  JsonObjectSchema,
  PublishedVersion,
  WEBHOOK_EVENT_KINDS,
  WebhookEventKindInResponse,
  WebhookSubscriptionUpdate,
} from "../../src/schemas/index.js";
import { EMAIL_PATTERN, Email, HTTP_URL_PATTERN } from "../../src/schemas/primitives.js";
import { ControlFault } from "../control/schemas.js";
import { matchJsonSchema } from "../faults/match.js";

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

/**
 * Rules Zod checks in code that JSON Schema cannot infer from the schema, written out so that a
 * client validating with the document accepts exactly what the server accepts.
 */
const WRITTEN_OUT = new Map<unknown, JsonSchema>([
  // The URL rule as the server applies it to the raw string: the pattern is the whole rule.
  [
    HttpUrl,
    {
      pattern: HTTP_URL_PATTERN.source,
      description:
        "An absolute http or https URL of at most 2048 characters, kept exactly as sent: printable ASCII only (send an IDN host or a non-ASCII path in its encoded form, e.g. https://xn--bcher-kva.example/hook), no user name or password, and it must parse as an absolute URL with a host (a port of at most 65535, no % in the host, a host name not ending in a number). The pattern states the whole rule.",
    },
  ],
  // The email grammar; `format: email` (RFC 5321: quoted strings, IP literals) would disagree with it.
  [Email, { pattern: EMAIL_PATTERN.source }],
  // The server always sends the three fields (null for a page never published); the SDK's schema
  // is lenient only because the spec shows their types alone.
  [PublishedVersion, { required: ["versionId", "versionNumber", "publishedAt"] }],
  // A response's event kind is any string at run time (forward compatibility); list the known ones.
  [WebhookEventKindInResponse, { examples: [...WEBHOOK_EVENT_KINDS], description: "A webhook event kind; kinds added later are passed through." }],
  // The events_empty refinement.
  [WebhookSubscriptionUpdate.shape.events.def.innerType, { minItems: 1 }],
  // A fault's match names only fields of its operation, each of its type (checked in code: compileMatch).
  [ControlFault, { allOf: [matchJsonSchema()] }],
]);

/** Keywords dropped from every schema: a string format the written-out pattern replaces. */
const DROPPED_FORMATS = new Set(["email", "url", "uri"]);

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
    // Custom checks have no JSON Schema: carry on, and let the override below describe the one we use.
    unrepresentable: "any",
    override(context) {
      // JsonObjectSchema is a custom check refined by the JSON limits: Zod visits it and its parent.
      const isJsonObject = context.zodSchema === JsonObjectSchema || context.zodSchema === JsonObjectSchema._zod.parent;
      if (context.zodSchema._zod.def.type === "custom" && !isJsonObject) {
        throw new TypeError("toJsonSchema: a custom schema other than JsonObjectSchema has no JSON Schema");
      }
      Object.assign(context.jsonSchema, WRITTEN_OUT.get(context.zodSchema));
      const format = context.jsonSchema["format"];
      if (typeof format === "string" && DROPPED_FORMATS.has(format) && context.jsonSchema["pattern"] !== undefined)
        delete context.jsonSchema["format"];
      // A default in a request makes generators (openapi-typescript) mark the field required: say it in words.
      if (io === "input" && context.jsonSchema["default"] !== undefined) {
        const { default: value } = context.jsonSchema;
        delete context.jsonSchema["default"];
        context.jsonSchema["description"] = `Optional; the server uses ${JSON.stringify(value)} when it is omitted.`;
      }
      if (isJsonObject) {
        for (const key of Object.keys(context.jsonSchema)) delete context.jsonSchema[key];
        // Free content: generators must type it as a record of anything, not an empty object.
        Object.assign(context.jsonSchema, { type: "object", additionalProperties: true });
      }
    },
  }) as JsonSchema;
  return rest;
}
