/**
 * The operation table (`src/operations.ts`) is the only place where an operation's method, path,
 * schemas and error statuses are written: every consumer is derived from it. Each case reads one
 * consumer and compares it with the table both ways, so a route in a consumer that the table does
 * not have fails as much as a row a consumer forgot.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FaultOperation } from "../../mock/faults/faults.js";
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
    for (const route of OPERATION_TABLE) {
      expect(typeof (sdk as Record<string, unknown>)[route.name]).toBe("function");
      const input = Object.fromEntries(route.params.map((param) => [param.key, `id_${param.key}`]));
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
      const url = `https://msw-table.test${sample(route)}`;
      const matches = (path: unknown) => (path instanceof RegExp ? path.test(url) : path === url);
      const handlers = api.handlers.slice(0, -2).filter((candidate) => matches(candidate.info.path));
      expect(handlers.map((handler) => handler.info.method)).toEqual([route.method]);
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
      ids: { prospectId: "id_prospectId" },
      quiet: false,
    });
    const curls = [...text.matchAll(/curl -sS (?:-X (\w+) )?'?http:\/\/127\.0\.0\.1:4010(\/v0\/[^\s']+)/g)].map((m) => `${m[1] ?? "GET"} ${m[2]}`);
    // The IDs the banner was given; a placeholder named as in the spec for any other parameter.
    const known = new Set(["pageGroupId", "pageId", "subscriptionId", "prospectId"]);
    const shown = (route: (typeof OPERATION_TABLE)[number]) =>
      fillPath(route, (param) => (known.has(param.key) ? `id_${param.key}` : `<${param.name}>`));
    expect(sorted(curls)).toEqual(sorted(OPERATION_TABLE.map((route) => `${route.method} ${shown(route)}`)));
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
    // An import of a module named like a resource (`./prospects.js`) is no path: a slash after a dot is not one.
    // Nor is a JSON pointer to an item of a fixture list (`/prospects/${i}`).
    const apiPath = new RegExp(`${API_PREFIX}/|(?<!__mock|CONTROL_PATH_PREFIX\\}|[.\\w])/(?:${segments.join("|")})\\b(?!/\\$\\{i\\})`);
    const writers = [...sourceFiles("src"), ...sourceFiles("mock")].filter((file) =>
      apiPath.test(withoutComments(readFileSync(join(ROOT, file), "utf8"))),
    );
    expect(writers).toEqual([join("src", "operations.ts")]);
  });
});

/** An operation's name as code can spell it: `getPage` (and what starts with it, `getPageRoute`), `GetPage...`, `get-page`. */
function spellings(name: string): RegExp {
  const kebab = name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
  const pascal = name[0]!.toUpperCase() + name.slice(1);
  return new RegExp(`\\b(?:${name}|${pascal})|\\b${kebab}\\b`);
}

/** An operation's name in kebab case, as its own files are named: `get-page`. */
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/**
 * Where an operation may be named: its row (src/operations.ts), its behaviour (the map of
 * mock/operations/index.ts) and its contract check (the map of mock/verify/operations/index.ts,
 * and the files of its own rules there, mock/verify/operations/<name>.ts and <name>-<aspect>.ts).
 * Everything else reaches an operation through the table, and a rule about the API as a whole
 * chooses its vehicle by what the row says.
 */
function isOwnFile(file: string): boolean {
  const path = file.split("\\").join("/");
  return (
    ["src/operations.ts", "mock/operations/index.ts", "mock/verify/operations/index.ts"].includes(path) ||
    OPERATIONS.some((name) => new RegExp(`^mock/verify/operations/${kebab(name)}(?:-[a-z-]+)?\\.ts$`).test(path))
  );
}

/** The files of src/ and mock/ that name an operation outside comments. */
function namingFiles(): string[] {
  return [...sourceFiles("src"), ...sourceFiles("mock")].filter((file) => {
    const code = withoutComments(readFileSync(join(ROOT, file), "utf8"));
    return OPERATIONS.some((name) => spellings(name).test(code));
  });
}

describe("an operation is named in its own files only", () => {
  it("outside comments, no file of src/ or mock/ but the row, the operation's behaviour and its contract check names an operation", () => {
    expect(namingFiles().filter((file) => !isOwnFile(file))).toEqual([]);
  });

  it("the check sees a name written anywhere else (a branch on an operation in the recording would fail it)", () => {
    const code = withoutComments('function see(operation) {\n  // getPage in a comment is fine\n  if (operation === "getPage") keep();\n}');
    expect(OPERATIONS.filter((name) => spellings(name).test(code))).toEqual(["getPage"]);
    expect(
      ["createProspectLogRoute", "UpdateWebhookSubscriptionParams", "./create-prospect-log.js"].map((text) =>
        OPERATIONS.some((name) => spellings(name).test(text)),
      ),
    ).toEqual([true, true, true]);
    expect(isOwnFile(join("mock", "server", "recording.ts"))).toBe(false);
    expect(isOwnFile(join("mock", "operations", "index.ts"))).toBe(true);
    expect(isOwnFile(join("mock", "verify", "operations", "create-prospect-log-bounds.ts"))).toBe(true);
    expect(isOwnFile(join("mock", "verify", "rules", "get-page.ts"))).toBe(false);
  });
});
