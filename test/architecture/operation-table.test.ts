/**
 * The operation table (`src/operations.ts`) is the only place where an operation's method, path,
 * schemas and error statuses are written: every consumer is derived from it. Each case reads one
 * consumer and compares it with the table both ways, so a route in a consumer that the table does
 * not have fails as much as a row a consumer forgot.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FaultOperation } from "../../mock/control/schemas.js";
import { createMockApi, OPERATIONS as MOCK_OPERATIONS } from "../../mock/index.js";
import { createOpenApiDocument } from "../../mock/openapi/document.js";
import { apiRoutes } from "../../mock/operations/index.js";
import { allowList, createRouter } from "../../mock/pipeline/router.js";
import { banner } from "../../mock/server/cli/output.js";
import * as sdk from "../../src/index.js";
import { API_PREFIX, fillPath } from "../../src/operation-row.js";
import { OPERATION_TABLE, OPERATIONS } from "../../src/operation-table.js";

const ROOT = join(import.meta.dirname, "..", "..");
const sorted = (items: Iterable<string>) => [...items].sort();
/** Each route as `METHOD /path/template`, the form every case compares. */
const TABLE = sorted(OPERATION_TABLE.map((route) => `${route.method} ${route.path}`));
/** A sample path of a route: every parameter filled with an ID. */
const sample = (route: (typeof OPERATION_TABLE)[number]) => fillPath(route, (param) => `id_${param.key}`);

describe("the operation table", () => {
  it("names each operation once, with a path under the API prefix whose parameters the template holds", () => {
    expect(new Set(OPERATIONS).size).toBe(OPERATION_TABLE.length);
    for (const route of OPERATION_TABLE) {
      expect(route.path.startsWith(`${API_PREFIX}/`)).toBe(true);
      const inTemplate = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(inTemplate).toEqual(route.params.map((param) => param.name));
    }
  });
});

describe("every consumer is derived from the table", () => {
  it("the SDK: a client method and a standalone function per row, sending the row's method and path", async () => {
    const sent: string[] = [];
    const fetch = async (url: string | URL | Request, init?: RequestInit) => {
      sent.push(`${init?.method} ${new URL(String(url)).pathname}`);
      return new Response("{}", { status: 500 });
    };
    const client = sdk.createClient({ apiKey: "pk_table", baseUrl: "https://table.test", fetch, maxRetries: 0, validateRequests: false });
    const clientMethods = Object.keys(client).filter((key) => typeof (client as unknown as Record<string, unknown>)[key] === "function");
    expect(sorted(clientMethods)).toEqual(sorted(OPERATIONS));
    const input = { pageGroupId: "id_pageGroupId", pageId: "id_pageId", subscriptionId: "id_subscriptionId", source: "s", payload: {} };
    for (const route of OPERATION_TABLE) {
      expect(typeof (sdk as Record<string, unknown>)[route.name]).toBe("function");
      await (client as unknown as Record<string, (input: unknown) => Promise<unknown>>)[route.name]!(input).catch(() => undefined);
    }
    expect(sorted(sent)).toEqual(sorted(OPERATION_TABLE.map((route) => `${route.method} ${sample(route)}`)));
  });

  it("the mock's router: each row's method and a sample path route to that operation, another method is a 405", () => {
    const routeApi = createRouter(
      apiRoutes(() => {
        throw new TypeError("routing reads no state");
      }),
    );
    for (const route of OPERATION_TABLE) {
      expect(routeApi(route.method, sample(route))).toMatchObject({ kind: "route", route: { operation: route.name } });
      expect(routeApi("DELETE", sample(route))).toEqual({ kind: "wrong-method", allow: allowList([route.method]), publicOnly: false });
    }
    expect(MOCK_OPERATIONS).toEqual(OPERATIONS);
  });

  it("the MSW handlers: one per row with its method, then the two fallbacks", () => {
    const api = createMockApi({ baseUrl: "https://msw-table.test" });
    const perOperation = api.handlers.slice(0, -2).map((handler) => handler.info.method);
    expect(sorted(perOperation as string[])).toEqual(sorted(OPERATION_TABLE.map((route) => route.method)));
    for (const route of OPERATION_TABLE) {
      const handler = api.handlers.find((candidate) => candidate.info.method === route.method)!;
      const path = handler.info.path;
      const url = `https://msw-table.test${sample(route)}`;
      expect(path instanceof RegExp ? path.test(url) : path === url).toBe(true);
    }
  });

  it("the OpenAPI document: its /v0 paths, methods, operation IDs and error statuses are the table's", () => {
    const paths = createOpenApiDocument().paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    const documented = Object.entries(paths)
      .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })));
    expect(sorted(documented.map(({ method, path }) => `${method} ${path}`))).toEqual(TABLE);
    for (const route of OPERATION_TABLE) {
      const { operation } = documented.find((entry) => entry.path === route.path)!;
      expect(operation.operationId).toBe(route.name);
      expect(Object.keys(operation.responses).map(Number)).toEqual([route.success, ...route.errors]);
    }
  });

  it("the fault targets: every operation of the table, and all", () => {
    expect(sorted(FaultOperation.options as readonly string[])).toEqual(sorted(["all", ...OPERATIONS]));
  });

  it("the CLI banner: one curl per row, with the row's method and path", () => {
    const text = banner({
      version: "0.0.0",
      url: "http://127.0.0.1:4010",
      apiKey: "k",
      otherKeys: 0,
      developmentKey: false,
      page: { pageGroupId: "id_pageGroupId", pageId: "id_pageId" },
      subscriptionId: "id_subscriptionId",
      quiet: false,
    });
    const curls = [...text.matchAll(/curl -sS (?:-X (\w+) )?http:\/\/127\.0\.0\.1:4010(\/v0\/\S+)/g)].map((m) => `${m[1] ?? "GET"} ${m[2]}`);
    expect(sorted(curls)).toEqual(sorted(OPERATION_TABLE.map((route) => `${route.method} ${sample(route)}`)));
  });
});

/** Every TypeScript file under a folder. */
function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(folder, file));
}

/** The text of a file without its comments (line and block), good enough for a path literal search. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("the paths are written once", () => {
  it("outside comments, an API path (/v0/... or one of its resource segments) appears in src/operations.ts only, among src/ and mock/", () => {
    const segments = [...new Set(OPERATION_TABLE.map((route) => route.path.split("/")[2]!))];
    // The control API's paths (`/__mock/...`, `${CONTROL_PATH_PREFIX}/...`) reuse the API's resource names: not API paths.
    const apiPath = new RegExp(`${API_PREFIX}/|(?<!__mock|CONTROL_PATH_PREFIX\\})/(?:${segments.join("|")})\\b`);
    const writers = [...sourceFiles("src"), ...sourceFiles("mock")].filter((file) =>
      apiPath.test(withoutComments(readFileSync(join(ROOT, file), "utf8"))),
    );
    expect(writers).toEqual([join("src", "operations.ts")]);
  });
});
