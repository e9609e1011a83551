/**
 * The MSW handlers of `prospectkit/mock`: one per operation (so `server.use` overrides one),
 * a fallback under `/v0`, only the mock's base URL intercepted, the same core and state as
 * `api.fetch`.
 */
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMockApi, createMswHandlers } from "../../mock/index.js";
import { fillPath } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import { quietUnhandledFrames } from "../support/unhandled-frames.js";

const api = createMockApi({ apiKeys: ["pk_msw"], baseUrl: "https://msw.example.test/api/", now: () => Date.parse("2024-02-29T12:00:00.000Z") });
const server = setupServer(...api.handlers);
const headers = { "x-api-key": "pk_msw", "content-type": "application/json" };
const create = () => fetch(`${api.baseUrl}/v0/prospect_logs`, { method: "POST", headers, body: '{"source":"crm","payload":{}}' });

const { onUnhandledFrame, unhandled } = quietUnhandledFrames(); // "error", without the console block
beforeAll(() => server.listen({ onUnhandledFrame }));
afterEach(() => {
  unhandled.length = 0;
  server.resetHandlers();
  api.reset();
});
afterAll(() => server.close());

describe("MSW handlers", () => {
  // Routes with IDs are expressions without groups: msw 2 would decode `:params` and fail on a malformed escape.
  it("are one per operation, in the table's order, plus the /v0 fallbacks for any method, in matching order", () => {
    const base = "https://msw.example.test/api";
    const perOperation = api.handlers.slice(0, OPERATION_TABLE.length);
    expect(perOperation.map((handler) => handler.info.method)).toEqual(OPERATION_TABLE.map((row) => row.method));
    for (const [i, row] of OPERATION_TABLE.entries()) {
      const { path } = perOperation[i]!.info;
      if (row.params.length === 0) expect(path).toBe(`${base}${row.path}`);
      else {
        // An expression without groups: msw 2 would decode `:params` and fail on a malformed escape.
        expect(path).toBeInstanceOf(RegExp);
        expect(String(path)).not.toContain("(");
        const sample = `${base}${fillPath(row, (param) => `id_${param.key}%ZZ`)}`;
        expect([(path as RegExp).test(sample), (path as RegExp).test(`${sample}/more`)]).toEqual([true, false]);
      }
    }
    expect(api.handlers.slice(OPERATION_TABLE.length).map((handler) => `${handler.info.method} ${String(handler.info.path)}`)).toEqual([
      "/.+/ https://msw.example.test/api/v0",
      String.raw`/.+/ /^https:\/\/msw\.example\.test\/api\/v0\/.*$/`,
    ]);
  });

  it("share the core and the state with api.fetch", async () => {
    const answer = await create();
    expect(answer.status).toBe(201);
    const { prospectLogId } = (await answer.json()) as { prospectLogId: string };
    expect(api.state.prospectLogs.get(prospectLogId)).toBeDefined();
    expect(api.requests.last()?.path).toBe("/api/v0/prospect_logs");
  });

  it("server.use overrides one operation; the others still answer from the mock", async () => {
    server.use(http.post(`${api.baseUrl}/v0/prospect_logs`, () => HttpResponse.json({ overridden: true }, { status: 418 })));
    expect((await create()).status).toBe(418);
    const page = api.state.pages.create();
    const answer = await fetch(`${api.baseUrl}/v0/page_groups/${page.pageGroupId}/pages/${page.id}`, { headers });
    expect(answer.status).toBe(200);
  });

  it("the fallback answers an unknown route 404 and a wrong method 405 with Allow", async () => {
    const unknown = await fetch(`${api.baseUrl}/v0/nope`, { headers });
    const wrong = await fetch(`${api.baseUrl}/v0/prospect_logs`, { method: "DELETE", headers });
    expect([unknown.status, wrong.status, wrong.headers.get("allow")]).toEqual([404, 405, "POST"]);
  });

  it("another origin, or a path outside the base URL, is not intercepted", async () => {
    const outside = createMswHandlers(api).every((handler) => !String(handler.info.path).startsWith("https://other.test"));
    expect(outside).toBe(true);
    await expect(fetch("https://other.test/v0/prospect_logs", { method: "POST", headers })).rejects.toThrow(TypeError);
    await expect(fetch("https://msw.example.test/v0/prospect_logs", { method: "POST", headers })).rejects.toThrow(TypeError);
    expect(api.requests.size).toBe(0);
    expect(unhandled).toEqual(["POST https://other.test/v0/prospect_logs", "POST https://msw.example.test/v0/prospect_logs"]);
  });

  it("a dropped connection is HttpResponse.error(): fetch rejects with a TypeError", async () => {
    api.faults.networkError();
    await expect(create()).rejects.toThrow(TypeError);
  });
});
