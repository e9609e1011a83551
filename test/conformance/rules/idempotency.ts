/**
 * Rules of idempotency (BEHAVIOUR "Idempotency"): scope (tenant, key), 24 hours; the same body
 * (after defaults) replays the original 201 with `idempotent-replayed: true` and stores nothing;
 * another body is 422; a request with the key still in flight is 409; concurrent requests with
 * one key create exactly one log.
 */
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_WINDOW_MS } from "../../../mock/index.js";
import { KEYS } from "../fixtures.js";
import { expectProblem, type Harness } from "../harness.js";

const BODY = { source: "crm", payload: { plan: "pro", seats: 3 }, email: "idem@example.com", idempotencyKey: "key-1" };

/** Registers the rules. */
export function idempotencyRules(h: Harness): void {
  const logCount = () => h.api.state.prospectLogs.list().length;

  describe("idempotency: the same key and body replay the original response", () => {
    it("the replay has status 201, the same body and idempotent-replayed: true; nothing new is stored", async () => {
      const first = await h.createLog(BODY);
      const count = logCount();
      h.advance(1000);
      const replay = await h.createLog(BODY);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      expect(replay.status).toBe(201);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(first.body);
      expect(logCount()).toBe(count);
      expect(replay.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    });

    it("the replay keeps createdProspect: true although the prospect exists now", async () => {
      const first = await h.createLog(BODY);
      expect(first.body.createdProspect).toBe(true);
      expect((await h.createLog(BODY)).body.createdProspect).toBe(true);
    });

    it.each([
      ["keys in another order", { idempotencyKey: "key-1", email: "idem@example.com", payload: { seats: 3, plan: "pro" }, source: "crm" }],
      ["type given as its default, webhook", { ...BODY, type: "webhook" }],
    ])("bodies equal after defaults replay: %s", async (_, second) => {
      const first = await h.createLog(BODY);
      const replay = await h.createLog(second);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(first.body);
    });

    it("the key is kept 24 hours: a replay at 24 h - 1 ms, a new log at 24 h", async () => {
      const first = await h.createLog(BODY);
      h.advance(IDEMPOTENCY_WINDOW_MS - 1);
      expect((await h.createLog(BODY)).body).toEqual(first.body);
      h.advance(1);
      const fresh = await h.createLog(BODY);
      expect(fresh.headers.get("idempotent-replayed")).toBeNull();
      expect(fresh.body.prospectLogId).not.toBe(first.body.prospectLogId);
      expect(fresh.body.createdProspect).toBe(false);
    });

    it("keys are scoped to the tenant: the same key in another tenant is a new request", async () => {
      const a = await h.createLog(BODY, { key: KEYS.a });
      const b = await h.createLog(BODY, { key: KEYS.b });
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      expect(b.body.prospectLogId).not.toBe(a.body.prospectLogId);
    });

    it("both keys of one tenant share the scope", async () => {
      const first = await h.createLog(BODY, { key: KEYS.a });
      expect((await h.createLog(BODY, { key: KEYS.a2 })).body).toEqual(first.body);
    });

    it("a request refused by validation does not use the key", async () => {
      expect((await h.createLog({ ...BODY, source: "" })).status).toBe(400);
      const created = await h.createLog(BODY);
      expect(created.status).toBe(201);
      expect(created.headers.get("idempotent-replayed")).toBeNull();
    });

    it("without a key, the same body twice writes two logs", async () => {
      const { idempotencyKey: _, ...noKey } = BODY;
      const count = logCount();
      await h.createLog(noKey);
      await h.createLog(noKey);
      expect(logCount()).toBe(count + 2);
    });
  });

  describe("idempotency: the same key with another body is 422 idempotency_key_reused", () => {
    it.each([
      ["another source", { source: "other" }],
      ["another payload value", { payload: { plan: "free", seats: 3 } }],
      ["an added field", { name: "Idem" }],
      ["a removed field", { email: undefined }],
    ])("%s: 422, nothing stored", async (_, changes) => {
      await h.createLog(BODY);
      const before = h.api.state.snapshot();
      const answer = await h.createLog(JSON.parse(JSON.stringify({ ...BODY, ...changes })));
      expectProblem(answer, 422, "idempotency_key_reused");
      expect(h.api.state.snapshot()).toBe(before);
    });
  });

  describe("idempotency: concurrency", () => {
    it("20 concurrent requests with one key create exactly one log; the others replay it", async () => {
      const count = logCount();
      const answers = await Promise.all(Array.from({ length: 20 }, () => h.createLog(BODY)));
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => a.body.prospectLogId)).size).toBe(1);
      expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
      expect(logCount()).toBe(count + 1);
    });

    it.each([
      ["the same body", { source: "crm" }, 409, "idempotency_request_in_progress"],
      ["another body", { source: "other" }, 422, "idempotency_key_reused"],
    ] as const)(
      "concurrent requests with one key never create two logs, both delayed by latency: %s twice at once is one 201 and one refusal (409 or 422)",
      async (_, changes, status, code) => {
        const count = logCount();
        h.api.faults.latency(100, { operation: "createProspectLog", times: 2 });
        const answers = await Promise.all([h.createLog(BODY), h.createLog({ ...BODY, ...changes })]);
        const created = answers.filter((a) => a.status === 201);
        expect(created).toHaveLength(1);
        expectProblem(answers.find((a) => a.status !== 201)!, status, code);
        expect(logCount()).toBe(count + 1);
      },
    );

    it("while the first request is in flight: the same body is 409, another body 422; afterwards a replay", async () => {
      h.api.faults.latency(300, { operation: "createProspectLog" });
      const first = h.createLog(BODY);
      // Wait until the mock holds the key in flight (a reservation without a result yet).
      while (!h.api.state.snapshot().includes('"result":null')) await new Promise((resolve) => setTimeout(resolve, 2));
      expectProblem(await h.createLog(BODY), 409, "idempotency_request_in_progress");
      expectProblem(await h.createLog({ ...BODY, source: "other" }), 422, "idempotency_key_reused");
      const original = await first;
      expect(original.status).toBe(201);
      const replay = await h.createLog(BODY);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(replay.body).toEqual(original.body);
    });
  });
}
