/**
 * One handler over one route table (CONTRIBUTING.md, "Architecture"): `api.fetch` answers every
 * route the standalone server answers but the console (its files are the server's), with the same
 * rules: the control API (key first, 405 with Allow), the inbox, both OpenAPI documents, HEAD.
 */
import { describe, expect, it } from "vitest";
import { createMockApi } from "../../mock/core.js";

const KEY = "key_one_handler";

describe("api.fetch answers the whole route table in process", () => {
  const api = createMockApi({ apiKeys: [KEY], seed: 1 });
  const call = (path: string, init: RequestInit = {}) => api.fetch(`${api.baseUrl}${path}`, init);

  it("the control API: a fault armed over HTTP applies to the next API call", async () => {
    const armed = await call("/__mock/faults", {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ kind: "status", status: 503, operation: "getPage" }),
    });
    expect(armed.status).toBe(201);
    const page = await call("/v0/page_groups/g/pages/p", { headers: { "x-api-key": KEY } });
    expect(page.status).toBe(503);
    expect(api.faults.pending()).toEqual([]);
  });

  it.each([
    ["the control API without a key: 401 before 404", "/__mock/nothing", "GET", 401],
    ["a control route with another method: 405 with Allow", "/__mock/state", "DELETE", 405],
    ["the API's document, without a key", "/openapi.json", "GET", 200],
    ["the control API's document, without a key", "/__mock/openapi.json", "GET", 200],
    ["HEAD on a document: the GET's status, no body", "/openapi.json", "HEAD", 200],
    ["the console is the server's: 404 in process", "/__mock/console", "GET", 404],
  ])("%s", async (_, path, method, status) => {
    const answer = await call(path, { method, ...(path === "/__mock/state" && { headers: { "x-api-key": KEY } }) });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
    if (status === 405) expect(answer.headers.get("allow")).toBe("GET, HEAD");
    if (method === "HEAD") {
      expect(await answer.text()).toBe("");
      expect(Number(answer.headers.get("content-length"))).toBeGreaterThan(1000);
    }
  });

  it("the control API's answers are not API requests: the request log keeps the API's only", async () => {
    api.reset();
    await call("/__mock/state", { headers: { "x-api-key": KEY } });
    await call("/v0/page_groups/g/pages/p", { headers: { "x-api-key": KEY } });
    expect(api.requests.list().map((entry) => entry.path)).toEqual(["/v0/page_groups/g/pages/p"]);
  });
});
