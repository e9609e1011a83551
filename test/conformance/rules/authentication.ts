/** Rules: authentication (401 before anything else) and tenancy (another tenant's data is 404). */
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../../mock/index.js";
import { A, B, KEYS, SUBSCRIPTIONS } from "../fixtures.js";
import { type CallOptions, expectProblem, type Harness } from "../harness.js";

const VALID_LOG = { source: "crm", payload: { plan: "pro" } };

/** Requests that would fail for other reasons too: authentication must answer first. */
const REQUESTS: readonly [string, string, string, CallOptions][] = [
  ["create prospect log", "POST", "/v0/prospect_logs", { json: VALID_LOG }],
  ["get page", "GET", `/v0/page_groups/${A.group}/pages/${A.custom}`, {}],
  ["update webhook subscription", "PATCH", `/v0/webhook_subscriptions/${SUBSCRIPTIONS.all}`, { json: {} }],
  ["an unknown route (401 before 404)", "GET", "/v0/unknown", {}],
  ["the bare /v0 path (401 before 404)", "GET", "/v0", {}],
  ["a wrong method (401 before 405)", "DELETE", "/v0/prospect_logs", {}],
  ["an invalid body (401 before 400)", "POST", "/v0/prospect_logs", { json: { source: "" } }],
  ["malformed JSON (401 before 400)", "POST", "/v0/prospect_logs", { raw: "{" }],
  ["a non-JSON media type (401 before 415)", "POST", "/v0/prospect_logs", { raw: "source=crm", contentType: "text/plain" }],
  ["a body over 1 MiB (401 before 413)", "POST", "/v0/prospect_logs", { raw: "x".repeat(MAX_BODY_BYTES + 1) }],
  ["an unknown page (401 before 404)", "GET", `/v0/page_groups/${A.group}/pages/page_missing`, {}],
  ["another tenant's subscription (401 before 404)", "PATCH", `/v0/webhook_subscriptions/${B.subscription}`, { json: {} }],
];

/** Registers the rules. */
export function authenticationRules(h: Harness): void {
  describe("authentication: every /v0 request needs x-api-key, checked before anything else", () => {
    it.each(REQUESTS)("without x-api-key, %s answers 401 missing_api_key", async (_, method, path, options) => {
      expectProblem(await h.call(method, path, { ...options, key: null }), 401, "missing_api_key");
    });

    it.each(REQUESTS)("with an empty x-api-key, %s answers 401 missing_api_key", async (_, method, path, options) => {
      expectProblem(await h.call(method, path, { ...options, key: "" }), 401, "missing_api_key");
    });

    it.each(REQUESTS)("with an unknown key, %s answers 401 invalid_api_key", async (_, method, path, options) => {
      expectProblem(await h.call(method, path, { ...options, key: "pk_test_unknown" }), 401, "invalid_api_key");
    });

    it.each([
      ["in the query string as x-api-key", `/v0/page_groups/${A.group}/pages/${A.custom}?x-api-key=${KEYS.a}`, {}],
      ["in the query string as api_key", `/v0/page_groups/${A.group}/pages/${A.custom}?api_key=${KEYS.a}`, {}],
      ["in the body", "/v0/prospect_logs", { json: { ...VALID_LOG, apiKey: KEYS.a } }],
    ])("a key sent %s is never accepted: 401 missing_api_key", async (_, path, options: CallOptions) => {
      const method = "json" in options ? "POST" : "GET";
      expectProblem(await h.call(method, path, { ...options, key: null }), 401, "missing_api_key");
    });

    it("a key is compared exactly (case-sensitive): 401 invalid_api_key", async () => {
      expectProblem(await h.getPage(A.group, A.custom, { key: KEYS.a.toUpperCase() }), 401, "invalid_api_key");
    });

    it("a revoked key answers 401 invalid_api_key, the tenant's other key still works", async () => {
      expect(h.api.state.apiKeys.revoke(KEYS.a2)).toBe(true);
      expectProblem(await h.getPage(A.group, A.custom, { key: KEYS.a2 }), 401, "invalid_api_key");
      expect((await h.getPage(A.group, A.custom, { key: KEYS.a })).status).toBe(200);
    });

    it("a key issued later works at once", async () => {
      const key = h.api.state.apiKeys.issue({ tenantId: "tenant_b", key: "pk_test_issued" });
      expect((await h.getPage(B.group, B.page, { key })).status).toBe(200);
    });

    it("every key of a tenant reaches the same data", async () => {
      const first = await h.getPage(A.group, A.custom, { key: KEYS.a });
      const second = await h.getPage(A.group, A.custom, { key: KEYS.a2 });
      expect(second.body).toEqual(first.body);
    });
  });

  describe("tenancy: another tenant's resource answers exactly like a missing one (404, never 403)", () => {
    const strip = (body: Record<string, unknown>) => ({ ...body, requestId: undefined });
    it.each([
      ["tenant A reading tenant B's page", (x: Harness) => x.getPage(B.group, B.page), (x: Harness) => x.getPage(B.group, "page_missing")],
      [
        "tenant B updating tenant A's subscription",
        (x: Harness) => x.patchSubscription(SUBSCRIPTIONS.all, { active: false }, { key: KEYS.b }),
        (x: Harness) => x.patchSubscription("whsub_missing", { active: false }, { key: KEYS.b }),
      ],
      [
        "tenant A updating tenant B's subscription",
        (x: Harness) => x.patchSubscription(B.subscription, { active: false }),
        (x: Harness) => x.patchSubscription("whsub_missing", { active: false }),
      ],
    ])("%s: 404 not_found, the same body as for a missing ID", async (_, other, missing) => {
      const otherAnswer = await other(h);
      const missingAnswer = await missing(h);
      expectProblem(otherAnswer, 404, "not_found");
      expect(strip(otherAnswer.body)).toEqual(strip(missingAnswer.body));
    });

    it("an update refused as another tenant's leaves that subscription unchanged", async () => {
      const before = h.api.state.webhookSubscriptions.get(B.subscription, { tenantId: "tenant_b" });
      await h.patchSubscription(B.subscription, { active: false });
      expect(h.api.state.webhookSubscriptions.get(B.subscription, { tenantId: "tenant_b" })).toEqual(before);
    });
  });
}
