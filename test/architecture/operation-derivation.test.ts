/**
 * Everything about an operation derives from its row: an operation defined only here (its own
 * row, schemas and behaviour, in no file of the project) is served by a client built from that
 * table, by `api.fetch`, by MSW and by the server over real HTTP, with the core's authentication,
 * routing and problem answers, and appears in the OpenAPI document each of them serves. Nothing
 * else is written for it: no method, no `prepare`, no route, no handler, no document entry.
 */
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createMockApi } from "../../mock/index.js";
import type { MockOperation } from "../../mock/operations/context.js";
import { MOCK_OPERATIONS } from "../../mock/operations/index.js";
import { startMockServer } from "../../mock/server/index.js";
import { timestamp } from "../../mock/state/store.js";
import { type ClientOf, clientWith } from "../../src/client.js";
import { type APIError, BadRequestError } from "../../src/index.js";
import type { OperationFunction } from "../../src/operation.js";
import { API_PREFIX, type OperationRow } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import type * as sdk from "../../src/operations.js";
import { quietUnhandledFrames } from "../support/unhandled-frames.js";

// The extra operation: its schemas, its row, its behaviour.
const WidgetNoteCreate = z.object({ text: z.string().check(z.minLength(1)) });
const WidgetNote = z.object({ widgetId: z.string(), text: z.string(), notedAt: z.string(), tenant: z.string() });
type WidgetNoteCreate = z.infer<typeof WidgetNoteCreate>;
type WidgetNote = z.infer<typeof WidgetNote>;

const row: OperationRow = {
  name: "addWidgetNote",
  method: "POST",
  path: `${API_PREFIX}/widgets/{widget_id}/notes`,
  params: [{ name: "widget_id", key: "widgetId", description: "The widget's ID." }],
  request: { schema: WidgetNoteCreate, encode: (_operation, fields) => fields as object },
  result: WidgetNote,
  success: 201,
  errors: [400, 401, 413, 415, 429, 500],
  retry: "idempotent",
  docs: {
    summary: "Add a note to a widget",
    description: "Keeps a line of text against a widget.",
    input: "The widget's ID and the note's text.",
    result: "The note as kept.",
  },
};
/** The client's methods: the table's and the extra one. */
type Table = Pick<typeof sdk, "createProspectLog" | "getPage" | "updateWebhookSubscription"> & {
  addWidgetNote: OperationFunction<WidgetNoteCreate & { widgetId: string }, WidgetNote>;
};

const extra: MockOperation = {
  row,
  run(context) {
    const body = {
      widgetId: context.params["widgetId"],
      text: (context.body as WidgetNoteCreate).text,
      notedAt: timestamp(context.store),
      tenant: context.tenant.record.id,
    };
    return { status: 201, body };
  },
};

const KEY = "pk_derivation";
const NOW = Date.parse("2024-02-29T12:00:00.000Z");
/** The mock serves the API's operations and the extra one. */
const mockOptions = { apiKeys: { [KEY]: "tenant_derivation" }, now: () => NOW, operations: [...MOCK_OPERATIONS, extra] };
/** A client of every operation of the API and the extra one. */
const clientOf = (baseUrl: string, fetch?: typeof globalThis.fetch) =>
  clientWith<ClientOf<Table>>([...OPERATION_TABLE, row], { apiKey: KEY, baseUrl, maxRetries: 0, ...(fetch && { fetch }) });

/** How a test reaches one way of serving the mock. */
interface Target {
  readonly baseUrl: string;
  /** Sends a request to the target. */
  readonly fetch: typeof globalThis.fetch;
  /** The OpenAPI document the mock behind the target serves (MSW intercepts the API only: its mock's `api.fetch` serves it). */
  readonly document: () => Promise<Response>;
  readonly client: ReturnType<typeof clientOf>;
}

/** Starts each way of serving the mock; its `close` stops it (MSW intercepts every fetch while it listens). */
const START: Record<"api.fetch" | "MSW" | "server", () => Promise<Target & { close(): Promise<void> | void }>> = {
  async "api.fetch"() {
    const api = createMockApi({ ...mockOptions, baseUrl: "https://fetch.derivation.test" });
    const document = () => api.fetch(`${api.baseUrl}/openapi.json`);
    return { baseUrl: api.baseUrl, fetch: api.fetch, document, client: clientOf(api.baseUrl, api.fetch), close: () => undefined };
  },
  async MSW() {
    const api = createMockApi({ ...mockOptions, baseUrl: "https://msw.derivation.test" });
    const intercepting = setupServer(...api.handlers);
    intercepting.listen({ onUnhandledFrame: quietUnhandledFrames().onUnhandledFrame });
    const document = () => api.fetch(`${api.baseUrl}/openapi.json`);
    return { baseUrl: api.baseUrl, fetch: (...args) => fetch(...args), document, client: clientOf(api.baseUrl), close: () => intercepting.close() };
  },
  async server() {
    const server = await startMockServer({ ...mockOptions, port: 0 });
    const document = () => fetch(`${server.url}/openapi.json`);
    return { baseUrl: server.url, fetch: (...args) => fetch(...args), document, client: clientOf(server.url), close: () => server.close() };
  },
};

describe.each(["api.fetch", "MSW", "server"] as const)("an operation defined only in a test, served by %s", (name) => {
  const targets = {} as Record<typeof name, Target>;
  let close: () => Promise<void> | void = () => undefined;
  beforeAll(async () => {
    const started = await START[name]();
    targets[name] = started;
    close = () => started.close();
  });
  afterAll(() => close());

  it("is a method of a client built from the table, answered by its behaviour through its row's path, and checked against its result schema", async () => {
    const { data, response } = await targets[name].client.addWidgetNote({ widgetId: "widget 1/a", text: "hello" }).withResponse();
    expect(response.status).toBe(201);
    expect(data).toEqual({ widgetId: "widget 1/a", text: "hello", notedAt: "2024-02-29T12:00:00.000Z", tenant: "tenant_derivation" });
  });

  it("keeps the table's own operations beside it", async () => {
    const log = await targets[name].client.createProspectLog({ source: "derivation", payload: {}, email: "ada@example.com" });
    expect(log.createdProspect).toBe(true);
  });

  it("has its input checked by the SDK from the row's request schema (nothing sent), and by the mock's body step (400 with field errors)", async () => {
    const refused = await targets[name].client.addWidgetNote({ widgetId: "w", text: "" }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ name: "RequestValidationError", operation: "addWidgetNote" });
    const client = clientWith<ClientOf<Pick<Table, "addWidgetNote">>>([row], {
      apiKey: KEY,
      baseUrl: targets[name].baseUrl,
      fetch: targets[name].fetch,
      maxRetries: 0,
      validateRequests: false,
    });
    const answered = (await client.addWidgetNote({ widgetId: "w", text: "" }).catch((error: unknown) => error)) as APIError;
    expect(answered).toBeInstanceOf(BadRequestError);
    expect(answered.body).toMatchObject({ code: "invalid_request", errors: [{ pointer: "/text", code: "too_short" }] });
  });

  it("gets the core's authentication, routing and body handling: 401 without a key, 405 with Allow, 404 beyond its path, 415 for text", async () => {
    const { baseUrl, fetch } = targets[name];
    const url = `${baseUrl}/v0/widgets/w1/notes`;
    const headers = { "x-api-key": KEY, "content-type": "application/json" };
    const noKey = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"text":"x"}' });
    const wrongMethod = await fetch(url, { method: "DELETE", headers });
    const beyond = await fetch(`${url}/more`, { method: "POST", headers, body: '{"text":"x"}' });
    const text = await fetch(url, { method: "POST", headers: { "x-api-key": KEY, "content-type": "text/plain" }, body: "x" });
    expect([noKey.status, wrongMethod.status, wrongMethod.headers.get("allow"), beyond.status, text.status]).toEqual([401, 405, "POST", 404, 415]);
    expect(noKey.headers.get("content-type")).toBe("application/problem+json");
  });

  it("appears in the OpenAPI document served, from its row: path, method, parameter, request and result schemas, statuses", async () => {
    const document = (await (await targets[name].document()).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const described = document.paths[row.path]?.["post"] as {
      operationId: string;
      parameters: { name: string; in: string }[];
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
      responses: Record<string, { content?: Record<string, { schema: { properties: Record<string, unknown> } }> }>;
    };
    expect(described.operationId).toBe("addWidgetNote");
    // Its prose, from its row as the table's own rows have theirs.
    expect(described).toMatchObject({ summary: "Add a note to a widget", description: "Keeps a line of text against a widget." });
    expect(described.parameters.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(["path widget_id"]);
    expect(described.parameters).toMatchObject([{ description: "The widget's ID." }]);
    expect(described.requestBody).toMatchObject({ description: "The widget's ID and the note's text." });
    expect(described.responses["201"]).toMatchObject({ description: "The note as kept." });
    expect(described.requestBody.content["application/json"]?.schema).toMatchObject({
      required: ["text"],
      properties: { text: { type: "string", minLength: 1 } },
    });
    expect(Object.keys(described.responses)).toEqual(["201", "400", "401", "413", "415", "429", "500"]);
    expect(Object.keys(described.responses["201"]?.content?.["application/json"]?.schema.properties ?? {})).toEqual([
      "widgetId",
      "text",
      "notedAt",
      "tenant",
    ]);
    // The API's own operations are still described beside it.
    expect(Object.values(document.paths).flatMap((methods) => Object.values(methods).map((entry) => entry["operationId"]))).toContain("getPage");
  });
});
