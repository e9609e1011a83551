/**
 * The OpenAPI 3.1 documents of the standalone server, generated from the shared Zod schemas (the
 * API's bodies) and the control API's route table. `/openapi.json` describes the API exactly as a
 * real deployment would publish it (the three `/v0` operations with their problem+json errors and
 * the `x-api-key` scheme), so clients generated from it and fuzzers pointed at it never reach the
 * mock's controls; the control API has its own document at `/__mock/openapi.json`.
 * @module
 */
import type * as z from "zod/mini";
import { API_KEY_HEADER, REPLAYED_HEADER } from "../../src/headers.js";
import type { OperationRow } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import { ProblemDetails } from "../../src/schemas/index.js";
import { VERSION } from "../../src/version.js";
import type { ControlRoute } from "../control/route.js";
import { CONTROL_ROUTES } from "../control/routes.js";
import { LOGGED_REQUESTS, logEntriesWith } from "../control/schemas.js";
import { NO_BODY } from "../pipeline/body.js";
import { mayWriteState } from "../pipeline/route.js";
import { type JsonSchema, toJsonSchema } from "./json-schema.js";
import { docsOf } from "./operation-docs.js";
import { errorResponseComponents, errorResponses, problemResponse, REQUEST_ID_HEADER, RETRY_AFTER_HEADER } from "./responses.js";

/** The server URL a document names when none is given. */
export const DEFAULT_DOCUMENT_SERVER = "http://127.0.0.1:4010";

/** Where the control API's own document is served. */
export const CONTROL_DOCUMENT_PATH = "/__mock/openapi.json";

/** Tags: the API of the spec, and the mock's control API. */
export const TAGS = { api: "API", control: "Control API" } as const;

function jsonBody(schema: JsonSchema | { $ref: string }, description: string) {
  return { required: true, description, content: { "application/json": { schema } } };
}

/**
 * The CORS headers every `/v0` answer carries (mock/server/cors.ts), as the API document lists them:
 * a web page on any origin may call the API, whose key is a header, never a cookie.
 */
const CORS_HEADERS = {
  "access-control-allow-origin": { $ref: "#/components/headers/AccessControlAllowOrigin" },
  "access-control-expose-headers": { $ref: "#/components/headers/AccessControlExposeHeaders" },
} as const;

const CORS_HEADER_COMPONENTS = {
  AccessControlAllowOrigin: {
    description: "Always `*`: a web page on any origin may call the API (the key is a header, never a cookie, so no credentials mode is needed).",
    schema: { type: "string", const: "*" },
  },
  AccessControlExposeHeaders: {
    description: "The headers a browser may read besides the safelisted ones: `x-request-id`, `idempotent-replayed`, `retry-after`, `allow`.",
    schema: { type: "string" },
  },
};

function success(description: string, schema: JsonSchema | { $ref: string }, extraHeaders: Record<string, unknown> = {}) {
  return {
    description,
    headers: { [REQUEST_ID_HEADER]: { $ref: "#/components/headers/RequestId" }, ...extraHeaders },
    content: { "application/json": { schema } },
  };
}

function pathParameter(name: string, description: string) {
  return { name, in: "path", required: true, description, schema: { type: "string", minLength: 1 } };
}

/** A schema of the document: a reference to its component when it has a name, else in place. */
type SchemaOrRef = JsonSchema | { $ref: string };

/**
 * The API's bodies, named as the rows write (and the SDK exports) them, each once: the request and
 * result schemas of every operation, then the problem body.
 */
function apiSchemas(rows: readonly OperationRow[]): Map<string, readonly [z.ZodMiniType, "input" | "output"]> {
  const named = new Map<string, readonly [z.ZodMiniType, "input" | "output"]>();
  for (const row of rows) {
    const { schemas } = docsOf(row);
    if (schemas.request !== undefined && row.request !== undefined) named.set(schemas.request, [row.request.schema, "input"]);
    if (schemas.result !== undefined) named.set(schemas.result, [row.result, "output"]);
  }
  return named.set("ProblemDetails", [ProblemDetails, "output"]);
}

/** A row's schema in the document: a reference to the component of its name, or in place for a schema without one. */
function schemaOf(
  named: ReadonlyMap<string, readonly [z.ZodMiniType, "input" | "output"]>,
  schema: z.ZodMiniType,
  io: "input" | "output",
): SchemaOrRef {
  for (const [name, [candidate]] of named) if (candidate === schema) return { $ref: `#/components/schemas/${name}` };
  return toJsonSchema(schema, io);
}

const REPLAYED_HEADER_DOC = {
  [REPLAYED_HEADER]: {
    description: "`true` when this answer replays an earlier request with the same idempotency key.",
    schema: { type: "string", enum: ["true"] },
  },
};

/** The operations of the spec, from their rows and their rows' documentation. */
function apiPaths(rows: readonly OperationRow[], named: ReadonlyMap<string, readonly [z.ZodMiniType, "input" | "output"]>) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const row of rows) {
    const docs = docsOf(row);
    (paths[row.path] ??= {})[row.method.toLowerCase()] = {
      operationId: row.name,
      tags: [TAGS.api],
      summary: docs.summary,
      ...(docs.description !== undefined && { description: docs.description }),
      ...(row.params.length > 0 && { parameters: row.params.map((param) => pathParameter(param.name, param.description)) }),
      ...(row.request !== undefined && { requestBody: jsonBody(schemaOf(named, row.request.schema, "input"), docs.input) }),
      responses: {
        [String(row.success)]: success(docs.result, schemaOf(named, row.result, "output"), {
          ...CORS_HEADERS,
          ...(row.retry === "idempotency-key" && REPLAYED_HEADER_DOC),
        }),
        ...errorResponses(row.errors),
      },
    };
  }
  return paths;
}

/** Why the handler answers 400 for what a control route reads: its body, its query, or a body it does not take. */
function readRefusals(route: ControlRoute): string[] {
  const reasons: string[] = [];
  if (route.body !== undefined && route.body !== "raw")
    reasons.push("The body is not a JSON object, or breaks the route's schema (every failing field in `errors`).");
  if (route.body === undefined && route.method !== "GET") reasons.push("A body other than none, an empty one or `{}`: the route takes none.");
  if (route.query !== undefined) reasons.push("An invalid query parameter (in `errors`).");
  return reasons;
}

/** When a control route that may write answers 503. */
const NOT_PERSISTED =
  "Only on a server with a state file (`--state`): the file cannot be written now (a full disk, an I/O error, a read-only file system), so the change was not made, or was undone (`state_not_persisted`, naming the file). Retry after `Retry-After` seconds; writes are taken again by themselves once the file can be written.";

/**
 * Every error a control route can answer: 401 without a valid key (unless public), 403 from the
 * server's `Host` and `Origin` checks, 400 (and 413, 415 for a body) for what it reads, the
 * refusals of its own `run`, each described where it has reasons of its own, and, for a route that
 * may write, the 503 of a state file that cannot keep the change.
 */
function controlErrors(route: ControlRoute): Record<string, unknown> {
  const refuses: Partial<Record<number, string>> = { ...route.refuses };
  const reads = readRefusals(route);
  if (reads.length > 0 || refuses[400] !== undefined) refuses[400] = [...reads, ...(refuses[400] === undefined ? [] : [refuses[400]])].join(" ");
  if (refuses[403] !== undefined)
    refuses[403] = `${refuses[403]} Or a \`Host\` or \`Origin\` the server does not serve (\`host_not_allowed\`, \`origin_not_allowed\`).`;
  const shared = errorResponses([
    ...(route.public === true ? [] : [401 as const]),
    ...(refuses[403] === undefined ? [403 as const] : []),
    ...(route.method === "GET" ? [] : route.body === "raw" ? [413 as const] : [413 as const, 415 as const]),
  ]);
  const own = Object.fromEntries(Object.entries(refuses).map(([status, description]) => [status, problemResponse(description!)]));
  // The handler refuses a route that may write while the server's state file cannot be written, and undoes one whose change it could not write.
  const writes = mayWriteState(route);
  const kept = writes ? { 503: problemResponse(NOT_PERSISTED, RETRY_AFTER_HEADER) } : {};
  return Object.fromEntries(Object.entries({ ...shared, ...own, ...kept }).sort(([a], [b]) => Number(a) - Number(b)));
}

function queryParameters(route: ControlRoute) {
  if (route.query === undefined) return [];
  const schema = toJsonSchema(route.query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

/**
 * The control API, from its route table.
 * @param logFields - the fields adapters attach to a log entry (the server's proxy), described in `GET /__mock/requests`
 */
function controlPaths(logFields: z.ZodMiniObject | undefined) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of CONTROL_ROUTES) {
    const response = route.response === LOGGED_REQUESTS && logFields !== undefined ? logEntriesWith(logFields) : route.response;
    const parameters = [
      ...[...route.path.matchAll(/\{(\w+)\}/g)].map((match) => pathParameter(match[1]!, "The ID of the resource.")),
      ...queryParameters(route),
    ];
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      tags: [TAGS.control],
      ...(route.public === true && { security: [] }),
      summary: route.summary,
      description: route.description,
      ...(parameters.length > 0 && { parameters }),
      ...(route.body !== undefined &&
        route.body !== "raw" && { requestBody: jsonBody(toJsonSchema(route.body, "input"), "Validated like the API's own bodies.") }),
      ...(route.body === undefined &&
        route.method !== "GET" && {
          requestBody: { ...jsonBody(toJsonSchema(NO_BODY, "input"), "Takes no body: send none, an empty one, or {}."), required: false },
        }),
      responses: {
        [String(route.status ?? 200)]: success("Done.", toJsonSchema(response, "output")),
        ...controlErrors(route),
      },
    };
  }
  return paths;
}

/**
 * A whole document: the dialect, the server, the key scheme and the `x-request-id` header both
 * documents share, around one document's paths and components.
 */
function openApiDocument(
  serverUrl: string,
  info: { title: string; summary: string; description: string },
  tag: { name: string; description: string },
  paths: Record<string, unknown>,
  components: { headers?: Record<string, unknown>; schemas: Record<string, unknown>; responses: Record<string, unknown> },
): Record<string, unknown> {
  return {
    openapi: "3.1.0",
    info: {
      ...info,
      version: VERSION,
      // Where to ask: the package, whose page links its repository and issues.
      contact: { name: "prospectkit", url: "https://www.npmjs.com/package/prospectkit" },
      license: { name: "MIT", identifier: "MIT" },
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: serverUrl, description: "The standalone mock server." }],
    security: [{ ApiKey: [] }],
    tags: [tag],
    paths,
    components: {
      securitySchemes: {
        ApiKey: { type: "apiKey", in: "header", name: API_KEY_HEADER, description: "Your API key; never in the query string or the body." },
      },
      headers: {
        RequestId: { description: "The request's ID, equal to `requestId` in a problem body.", schema: { type: "string" } },
        ...components.headers,
      },
      schemas: components.schemas,
      responses: components.responses,
    },
  };
}

/** The error responses `paths` refers to (a linter flags an unused component). */
function responsesUsedBy(paths: unknown, responses: Record<string, unknown>): Record<string, unknown> {
  const used = new Set([...JSON.stringify(paths).matchAll(/#\/components\/responses\/(\w+)/g)].map((match) => match[1]!));
  return Object.fromEntries(Object.entries(responses).filter(([name]) => used.has(name)));
}

/**
 * The OpenAPI 3.1 document of the API: the `/v0` operations only, as a real deployment publishes
 * it (the control API has {@link createControlOpenApiDocument}).
 * @param serverUrl - the server the document describes
 * @param rows - the operations it describes (every operation of the API unless a test gives its own)
 */
export function createOpenApiDocument(
  serverUrl: string = DEFAULT_DOCUMENT_SERVER,
  rows: readonly OperationRow[] = OPERATION_TABLE,
): Record<string, unknown> {
  const named = apiSchemas(rows);
  const paths = apiPaths(rows, named);
  return openApiDocument(
    serverUrl,
    {
      title: "Prospect Activity, Page and Webhook Subscription API",
      summary: "The Prospect Activity, Page and Webhook Subscription API, served by the prospectkit reference mock.",
      description:
        "Every request needs the `x-api-key` header; a key acts within its tenant, and another tenant's resources " +
        "answer 404. Every error is an RFC 9457 problem (`application/problem+json`) whose `requestId` equals the " +
        `\`x-request-id\` header. The mock's control API is described separately, at \`${CONTROL_DOCUMENT_PATH}\`.`,
    },
    { name: TAGS.api, description: "The operations of the spec, answered by the stateful mock." },
    paths,
    {
      headers: CORS_HEADER_COMPONENTS,
      schemas: Object.fromEntries([...named].map(([name, [schema, io]]) => [name, toJsonSchema(schema, io)])),
      responses: responsesUsedBy(paths, errorResponseComponents(CORS_HEADERS)),
    },
  );
}

/**
 * The OpenAPI 3.1 document of the mock's control API (`/__mock`), from its route table: what a
 * test harness in any language uses to drive the mock.
 * @param serverUrl - the server the document describes
 */
export function createControlOpenApiDocument(serverUrl: string = DEFAULT_DOCUMENT_SERVER, logFields?: z.ZodMiniObject): Record<string, unknown> {
  const paths = controlPaths(logFields);
  return openApiDocument(
    serverUrl,
    {
      title: "prospectkit mock control API",
      summary: "Drive and inspect the prospectkit reference mock's state from any language (mock only, not part of the API).",
      description:
        "Every request needs the `x-api-key` header of a tenant; everything is scoped to that tenant. A start key (one the " +
        "server was started with) may also reset the whole server and delete any tenant made by `POST /__mock/tenants`; " +
        "a key `POST /__mock/tenants` made acts on its own tenant only. Every error is an RFC 9457 problem " +
        "(`application/problem+json`) whose `requestId` equals the `x-request-id` header.",
    },
    { name: TAGS.control, description: "Drive and inspect the mock's state (mock only, not part of the API)." },
    paths,
    { schemas: { ProblemDetails: toJsonSchema(ProblemDetails, "output") }, responses: responsesUsedBy(paths, errorResponseComponents()) },
  );
}
