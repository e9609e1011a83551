/**
 * Rules about state over HTTP: a rejected request changes nothing; every answered request is in
 * the request log (method, path, status, bodies) and the API key never is.
 */
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../mock/index.js";
import { A, KEYS, SUBSCRIPTIONS } from "../fixtures.js";
import type { CallOptions, Harness } from "../harness.js";

const REJECTED: readonly [string, string, string, CallOptions][] = [
  ["401 create", "POST", "/v0/prospect_logs", { key: null, json: { source: "crm", payload: {} } }],
  ["401 update", "PATCH", `/v0/webhook_subscriptions/${SUBSCRIPTIONS.all}`, { key: "nope", json: { active: false } }],
  ["400 create", "POST", "/v0/prospect_logs", { json: { source: "crm", payload: {}, email: "bad", idempotencyKey: "k" } }],
  ["400 update", "PATCH", `/v0/webhook_subscriptions/${SUBSCRIPTIONS.all}`, { json: { active: false, events: [] } }],
  ["404 update", "PATCH", "/v0/webhook_subscriptions/whsub_missing", { json: { active: false } }],
  ["405", "PUT", "/v0/prospect_logs", { json: { source: "crm", payload: {} } }],
  ["413", "POST", "/v0/prospect_logs", { raw: "x".repeat(MAX_BODY_BYTES + 1) }],
  ["415", "POST", "/v0/prospect_logs", { raw: new TextEncoder().encode('{"source":"crm","payload":{}}'), contentType: null }],
  ["400 malformed JSON", "PATCH", `/v0/webhook_subscriptions/${SUBSCRIPTIONS.all}`, { raw: '{"active":false' }],
];

/** Registers the rules. */
export function stateRules(h: Harness): void {
  describe("a rejected request leaves the state byte-for-byte unchanged", () => {
    it.each(REJECTED)("%s", async (_, method, path, options) => {
      const before = h.api.state.snapshot();
      const answer = await h.call(method, path, options);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(h.api.state.snapshot()).toBe(before);
    });
  });

  describe("the request log records every answered request, never the API key", () => {
    it("method, path (as requested, without the query), operation, status and both bodies are recorded, in order", async () => {
      const body = { source: "crm", payload: { a: 1 } };
      const created = await h.createLog(body);
      await h.getPage(A.group, A.custom);
      await h.call("GET", "/v0/nothing", { key: null });
      const log = h.api.requests.list();
      const base = new URL(h.api.baseUrl).pathname.replace(/\/$/, "");
      expect(log.map(({ method, path, operation, status }) => ({ method, path, operation, status }))).toEqual([
        { method: "POST", path: `${base}/v0/prospect_logs`, operation: "createProspectLog", status: 201 },
        { method: "GET", path: `${base}/v0/page_groups/${A.group}/pages/${A.custom}`, operation: "getPage", status: 200 },
        { method: "GET", path: `${base}/v0/nothing`, operation: null, status: 401 },
      ]);
      expect(log[0]).toMatchObject({ requestBody: body, responseBody: created.body, requestId: created.headers.get("x-request-id") });
    });

    it("the API key appears nowhere in the log, even when sent in the query string", async () => {
      await h.createLog({ source: "crm", payload: {} });
      await h.call("GET", `/v0/page_groups/${A.group}/pages/${A.custom}?api_key=${KEYS.a2}`);
      await h.getPage(A.group, A.custom, { key: "pk_test_wrong_key_value" });
      const text = JSON.stringify(h.api.requests.list());
      for (const key of [KEYS.a, KEYS.a2, "pk_test_wrong_key_value"]) expect(text).not.toContain(key);
    });

    it("a reset empties the log and restores the fixtures", async () => {
      const fixtures = h.api.state.snapshot();
      await h.createLog({ source: "crm", payload: {} });
      h.reset();
      expect(h.api.requests.size).toBe(0);
      expect(h.api.state.snapshot()).toBe(fixtures);
    });
  });
}
