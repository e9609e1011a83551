/**
 * `api.state.restore(snapshot)` (docs/testing.md): it puts a snapshot's records back, keeps the
 * keys, the request log and armed faults, and refuses a snapshot that is not this mock's with a
 * `MockStateError`, changing nothing: each refusal below is tried against a mock holding data
 * that the refused restore would have replaced.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, MockStateError } from "../../mock/index.js";

const KEY = "restore_key";
const headers = { "x-api-key": KEY, "content-type": "application/json" };

function seededMock() {
  const api = createMockApi({ apiKeys: [KEY] });
  api.state.prospectLogs.create({ source: "crm", payload: { n: 1 }, email: "ada@example.com" });
  return api;
}

describe("api.state.restore puts a snapshot back", () => {
  it("the records come back as they were; the keys still work and the request log is kept", async () => {
    const api = seededMock();
    const seeded = api.state.snapshot();
    const created = await api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ source: "crm", payload: {}, email: "grace@example.com" }),
    });
    expect(created.status).toBe(201);
    expect(api.state.prospectLogs.list()).toHaveLength(2);
    api.state.restore(seeded);
    expect(api.state.snapshot()).toBe(seeded);
    expect(api.requests.list().map((entry) => entry.status)).toEqual([201]);
    const again = await api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ source: "crm", payload: {}, email: "grace@example.com" }),
    });
    expect(again.status).toBe(201);
    expect(api.state.prospectLogs.list()).toHaveLength(2);
  });
});

describe("api.state.restore refuses what is not this mock's snapshot, changing nothing", () => {
  const valid = () => JSON.parse(seededMock().state.snapshot()) as { tenants: { prospectLogs: { prospectId: string }[] }[] };
  const cases: readonly [rule: string, snapshot: () => string][] = [
    ["not JSON", () => "{not json"],
    ["JSON that is not a snapshot", () => JSON.stringify({ hello: "world" })],
    ["a snapshot of a mock with other keys", () => createMockApi({ apiKeys: ["another_key"] }).state.snapshot()],
    ["a snapshot of a mock with more tenants", () => createMockApi({ apiKeys: { [KEY]: "tenant_a", other_key: "tenant_b" } }).state.snapshot()],
    [
      "a snapshot whose log names a prospect it does not hold",
      () => {
        const snapshot = valid();
        snapshot.tenants[0]!.prospectLogs[0]!.prospectId = "prospect_01m8ck8nw011s6bfpw8j2rd2em";
        return JSON.stringify(snapshot);
      },
    ],
  ];

  it.each(cases)("%s: MockStateError, and the data, keys and request log are as before", async (_rule, snapshot) => {
    const api = seededMock();
    await api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ source: "crm", payload: {}, email: "grace@example.com" }),
    });
    const before = api.state.snapshot();
    const requests = api.requests.list();
    const text = snapshot();
    expect(() => api.state.restore(text)).toThrow(MockStateError);
    expect(api.state.snapshot()).toBe(before);
    expect(api.requests.list()).toEqual(requests);
    const read = await api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
      method: "POST",
      headers,
      body: JSON.stringify({ source: "crm", payload: {}, email: "grace@example.com" }),
    });
    expect(read.status).toBe(201);
  });
});
