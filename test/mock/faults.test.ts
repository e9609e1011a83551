/** `api.faults`: argument checks, consumption order, scope, and combination with latency. */
import { describe, expect, it } from "vitest";
import { createMockApi, DEFAULT_API_KEY } from "../../mock/index.js";

const api = createMockApi({ now: () => Date.parse("2024-02-29T12:00:00.000Z") });
const get = () => api.fetch(`${api.baseUrl}/v0/page_groups/g/pages/p`, { headers: { "x-api-key": DEFAULT_API_KEY } });

describe("fault arguments are checked (TypeError)", () => {
  it.each([
    ["status 200", () => api.faults.status(200)],
    ["status 600", () => api.faults.status(600)],
    ["status 503.5", () => api.faults.status(503.5)],
    ["a negative retryAfter", () => api.faults.status(429, { retryAfter: -1 })],
    ["a fractional retryAfter", () => api.faults.status(429, { retryAfter: 0.5 })],
    ["negative latency", () => api.faults.latency(-1)],
    ["infinite latency", () => api.faults.latency(Number.POSITIVE_INFINITY)],
    ["times 0", () => api.faults.status(500, { times: 0 })],
    ["times 1.5", () => api.faults.status(500, { times: 1.5 })],
    ["an unknown operation", () => api.faults.networkError({ operation: "deletePage" as never })],
  ])("%s is refused", (_, arm) => {
    expect(arm).toThrow(TypeError);
    expect(api.faults.pending()).toEqual([]);
  });
});

describe("faults are consumed in the order they were armed", () => {
  it("two status faults answer in turn, then the mock is normal", async () => {
    api.faults.clear();
    api.faults.status(500);
    api.faults.status(502);
    expect(api.faults.pending().map((p) => p.fault)).toEqual([
      { kind: "status", status: 500, retryAfterSeconds: null },
      { kind: "status", status: 502, retryAfterSeconds: null },
    ]);
    expect([(await get()).status, (await get()).status, (await get()).status]).toEqual([500, 502, 404]);
    expect(api.faults.pending()).toEqual([]);
  });

  it("times: Infinity lasts until clear()", async () => {
    api.faults.status(503, { times: Infinity });
    for (let i = 0; i < 5; i++) expect((await get()).status).toBe(503);
    api.faults.clear();
    expect((await get()).status).toBe(404);
  });

  it("latency combines with one other fault in the same call", async () => {
    api.faults.latency(50);
    api.faults.status(503);
    const order: string[] = [];
    const delayed = get().then((r) => order.push(`delayed ${r.status}`));
    const prompt = get().then((r) => order.push(`prompt ${r.status}`));
    await Promise.all([delayed, prompt]);
    expect(order).toEqual(["prompt 404", "delayed 503"]);
    expect(api.faults.pending()).toEqual([]);
  });

  it("a fault for another operation stays armed", async () => {
    api.faults.status(500, { operation: "createProspectLog" });
    expect((await get()).status).toBe(404);
    expect(api.faults.pending()).toEqual([
      { fault: { kind: "status", status: 500, retryAfterSeconds: null }, operation: "createProspectLog", remaining: 1 },
    ]);
    api.faults.clear();
  });

  it("the titles of gateway statuses say what they are", async () => {
    api.faults.status(504);
    expect(await (await get()).json()).toMatchObject({ status: 504, title: "Gateway timeout", code: "internal_error" });
  });
});
