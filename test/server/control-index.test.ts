/**
 * Issue 34.5: `GET /__mock`, the address the banner prints for the control API, answers an index
 * instead of a 404: every control route, both OpenAPI documents and (on the server) the console,
 * each with its method, path and summary, read from the route table that answered; no key needed,
 * and described in the control API's own document.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockApi } from "../../mock/core.js";
import { createControlOpenApiDocument } from "../../mock/openapi/document.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";

interface Indexed {
  method: string;
  path: string;
  summary: string;
  public: boolean;
}
interface Index {
  name: string;
  version: string;
  auth: string;
  documents: Indexed[];
  console: Indexed[];
  control: Indexed[];
}

const document = createControlOpenApiDocument("http://127.0.0.1:4010") as {
  paths: Record<string, Record<string, { summary: string; security?: unknown[]; responses: Record<string, unknown> }>>;
};
const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
  Object.entries(operations).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    summary: operation.summary,
    public: operation.security !== undefined,
  })),
);

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, apiKeys: ["index_key"] });
});
afterAll(() => server.close());

async function indexOf(fetcher: typeof fetch, url: string, headers: Record<string, string> = {}): Promise<Index> {
  const response = await fetcher(`${url}/__mock`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return (await response.json()) as Index;
}

describe("GET /__mock: the index of the control API", () => {
  it("answers without a key (and the same with one): the documents, and every control route as its document describes it", async () => {
    const api = createMockApi({ apiKeys: ["index_key"] });
    const index = await indexOf(api.fetch, api.baseUrl);
    expect(await indexOf(api.fetch, api.baseUrl, { "x-api-key": "index_key" })).toEqual(index);
    expect(index).toMatchObject({ name: "prospectkit-mock", version: expect.any(String), auth: expect.stringContaining("x-api-key") });
    expect(index.documents.map(({ path, public: open }) => [path, open])).toEqual([
      ["/openapi.json", true],
      ["/__mock/openapi.json", true],
    ]);
    const byRoute = (a: Indexed, b: Indexed) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`);
    expect([...index.control].sort(byRoute)).toEqual([...documented].sort(byRoute));
    expect(index.control).toContainEqual(expect.objectContaining({ method: "GET", path: "/__mock", public: true }));
    expect(index.control).toContainEqual(expect.objectContaining({ method: "POST", path: "/__mock/reset", public: false }));
  });

  it("in process (api.fetch, MSW) lists no console; the server lists its page and live feed, and each listed GET route answers", async () => {
    const api = createMockApi();
    expect((await indexOf(api.fetch, api.baseUrl)).console).toEqual([]);
    const index = await indexOf(fetch, server.url);
    expect(index.console.map(({ method, path }) => `${method} ${path}`)).toEqual(["GET /__mock/console", "GET /__mock/events"]);
    const reads = [...index.documents, ...index.console, ...index.control].filter((route) => route.method === "GET" && !route.path.includes("{"));
    for (const route of reads) {
      const response = await fetch(`${server.url}${route.path}`, { headers: route.public ? {} : { "x-api-key": "index_key" } });
      await response.body?.cancel();
      expect(response.status, `${route.method} ${route.path}`).toBe(200);
    }
  });

  it("is in the control API's OpenAPI document: public (security: []), answering 200", () => {
    const operation = document.paths["/__mock"]?.["get"];
    expect(operation).toMatchObject({ security: [], responses: { "200": expect.anything() } });
    expect(operation?.summary).toMatch(/control routes, the OpenAPI documents and the console/);
  });

  it("takes GET only: another method is a 405 naming it", async () => {
    const response = await fetch(`${server.url}/__mock`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toMatch(/^GET/);
  });
});
