/**
 * Idempotency under load (issue 7.3): 1,000 concurrent `createProspectLog` calls with one
 * idempotency key, through the SDK, against the standalone server over real HTTP, create exactly
 * one log. Every call gets the same log; all but the first are marked as replays.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { ConflictError, createClient, type ProspectLog, type WithResponse } from "../../src/index.js";

const API_KEY = "pk_test_abuse_idempotency_77b2";
const CALLS = 1_000;
const BODY = { source: "crm", payload: { campaign: "spring", score: 7 }, email: "burst@example.com", idempotencyKey: "idem-burst-0001" };

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, apiKeys: [API_KEY], seed: 5 });
});
afterAll(() => server.close());
beforeEach(() => server.api.reset());

function burst(): Promise<PromiseSettledResult<WithResponse<ProspectLog>>[]> {
  const client = createClient({ apiKey: API_KEY, baseUrl: server.url, maxRetries: 0 });
  return Promise.allSettled(Array.from({ length: CALLS }, () => client.createProspectLog(BODY).withResponse()));
}

describe("1,000 concurrent creates with one idempotency key", () => {
  it("store exactly one log; every call gets it, and all but one are marked as replays", async () => {
    const settled = await burst();
    const results = settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value : expect.unreachable(String(outcome.reason))));

    const logs = server.api.state.prospectLogs.list();
    expect(logs).toHaveLength(1);
    expect(server.api.state.prospects.list()).toHaveLength(1);
    expect(new Set(results.map(({ data }) => data.prospectLogId))).toEqual(new Set([logs[0]!.id]));
    // A replay is the original answer: same status and body (same IDs, createdAt, createdProspect).
    for (const { data, response } of results) {
      expect(response.status).toBe(201);
      expect(data).toEqual(results[0]!.data);
    }
    const marks = results.map(({ response }) => response.headers.get("idempotent-replayed"));
    expect(marks.filter((mark) => mark === "true")).toHaveLength(CALLS - 1);
    expect(marks.filter((mark) => mark === null)).toHaveLength(1);
    expect(server.api.requests.list().filter((entry) => entry.operation === "createProspectLog")).toHaveLength(CALLS);
  }, 60_000);

  it("while the first is still in flight (every answer 50 ms late), the others are refused with 409, never stored twice", async () => {
    await fetch(`${server.url}/__mock/faults`, {
      method: "POST",
      headers: { "x-api-key": API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ kind: "latency", ms: 50, operation: "createProspectLog", times: null }),
    });
    const settled = await burst();

    const logs = server.api.state.prospectLogs.list();
    expect(logs).toHaveLength(1);
    const created = settled.flatMap((outcome) => (outcome.status === "fulfilled" ? [outcome.value] : []));
    const refused = settled.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThan(0); // the window was really hit
    for (const { data } of created) expect(data.prospectLogId).toBe(logs[0]!.id);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ status: 409, code: "idempotency_request_in_progress" });
    }
    expect(created.filter(({ response }) => response.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(created.length + refused.length).toBe(CALLS);
  }, 60_000);
});
