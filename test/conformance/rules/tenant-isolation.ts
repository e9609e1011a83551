/**
 * Isolation per tenant: faults, resets and the request log follow the tenant. A fault armed for one
 * tenant applies to its requests only; a tenant's reset leaves the others as they were; a tenant
 * made by `api.isolate()` starts empty and reaches only its own data, whatever the adapter.
 */
import { describe, expect, it } from "vitest";
import { A, B, KEYS } from "../fixtures.js";
import { expectProblem, type Harness } from "../harness.js";

const BODY = { source: "crm", payload: {} };

/** Registers the rules. */
export function tenantIsolationRules(h: Harness): void {
  describe("isolation per tenant", () => {
    it("a fault armed for tenant B never answers tenant A's requests; B's next request takes it", async () => {
      h.api.tenant("tenant_b").faults.status(503, { times: Infinity });
      expect((await h.getPage(A.group, A.custom)).status).toBe(200);
      expect((await h.createLog(BODY)).status).toBe(201);
      expectProblem(await h.getPage(B.group, B.page, { key: KEYS.b }), 503, "internal_error");
      expect(h.api.tenant("tenant_a").faults.pending()).toEqual([]);
      expect(h.api.tenant("tenant_b").faults.pending()).toMatchObject([{ tenantId: "tenant_b", remaining: Infinity }]);
    });

    it("a tenant's fault never reaches a request without a valid key: 401 first", async () => {
      h.api.tenant("tenant_a").faults.status(503);
      expectProblem(await h.getPage(A.group, A.custom, { key: null }), 401, "missing_api_key");
      expectProblem(await h.getPage(A.group, A.custom, { key: "pk_unknown" }), 401, "invalid_api_key");
      expect(h.api.tenant("tenant_a").faults.pending()).toHaveLength(1);
    });

    it("a tenant's clear() disarms its own faults only; api.faults lists and clears them all", () => {
      h.api.tenant("tenant_a").faults.latency(1);
      h.api.tenant("tenant_b").faults.status(500);
      h.api.faults.status(502);
      h.api.tenant("tenant_a").faults.clear();
      expect(h.api.faults.pending().map((entry) => entry.tenantId ?? "every tenant")).toEqual(["tenant_b", "every tenant"]);
      h.api.faults.clear();
      expect(h.api.faults.pending()).toEqual([]);
    });

    it("a tenant's reset: its data back to its fixtures, its requests and faults forgotten; the other tenant untouched", async () => {
      expect((await h.createLog(BODY)).status).toBe(201);
      expect((await h.createLog(BODY, { key: KEYS.b })).status).toBe(201);
      h.api.tenant("tenant_a").faults.status(500, { times: Infinity });
      const pagesOfB = h.api.state.pages.list({ tenantId: "tenant_b" });
      h.api.tenant("tenant_b").reset();
      expect(h.api.state.prospectLogs.list({ tenantId: "tenant_b" })).toEqual([]);
      expect(h.api.state.pages.list({ tenantId: "tenant_b" })).toEqual(pagesOfB);
      expect(h.api.tenant("tenant_b").requests()).toEqual([]);
      expect(h.api.state.prospectLogs.list({ tenantId: "tenant_a" })).toHaveLength(1);
      expect(
        h.api
          .tenant("tenant_a")
          .requests()
          .map((entry) => entry.status),
      ).toEqual([201]);
      expect(h.api.tenant("tenant_a").faults.pending()).toHaveLength(1);
      expect((await h.getPage(B.group, B.page, { key: KEYS.b })).status).toBe(200);
    });

    it("an isolated tenant: a new key reaching only its own, empty data; its requests, faults and reset are its own", async () => {
      const t = h.api.isolate();
      expect(t.apiKey).toMatch(/^key_[0-9a-f]{32}$/);
      expect(h.api.isolate().apiKey).not.toBe(t.apiKey);
      expectProblem(await h.getPage(A.group, A.custom, { key: t.apiKey }), 404, "not_found");
      const created = await h.createLog(BODY, { key: t.apiKey });
      expect(created.status).toBe(201);
      expect(h.api.state.prospectLogs.list({ tenantId: t.tenantId }).map((entry) => entry.id)).toEqual([created.body.prospectLogId]);
      t.faults.status(503);
      expect((await h.createLog(BODY)).status).toBe(201);
      expectProblem(await h.createLog(BODY, { key: t.apiKey }), 503, "internal_error");
      expect(t.requests().map((entry) => entry.status)).toEqual([404, 201, 503]);
      t.reset();
      expect(h.api.state.prospectLogs.list({ tenantId: t.tenantId })).toEqual([]);
      expect(t.requests()).toEqual([]);
      expect((await h.createLog(BODY, { key: t.apiKey })).status).toBe(201);
      expect(h.api.state.prospectLogs.list({ tenantId: "tenant_a" })).toHaveLength(1);
    });

    it("a whole reset removes isolated tenants: their keys answer 401", async () => {
      const t = h.api.isolate();
      h.reset();
      expectProblem(await h.getPage(A.group, A.custom, { key: t.apiKey }), 401, "invalid_api_key");
      expect(() => h.api.tenant(t.tenantId)).toThrow(/no tenant/);
    });
  });
}
