/**
 * Fault injection over HTTP: an injected status (429 with Retry-After), scoped to one operation
 * or all and to N calls; a dropped connection (before or after processing); a malformed body;
 * latency.
 */
import { describe, expect, it } from "vitest";
import { A } from "../fixtures.js";
import { expectProblem, type Harness } from "../harness.js";

const BODY = { source: "crm", payload: {} };

/** Registers the rules. */
export function faultRules(h: Harness): void {
  describe("fault injection", () => {
    it.each([
      [429, "rate_limited", "1"],
      [500, "internal_error", null],
      [503, "internal_error", null],
      [404, "not_found", null],
    ] as const)(
      "status %i answers a problem (Retry-After %s) without processing, then the mock is normal again",
      async (status, code, retryAfter) => {
        h.api.faults.status(status);
        const before = h.api.state.snapshot();
        const answer = await h.createLog(BODY);
        expectProblem(answer, status, code);
        expect(answer.headers.get("retry-after")).toBe(retryAfter);
        expect(h.api.state.snapshot()).toBe(before);
        expect((await h.createLog(BODY)).status).toBe(201);
      },
    );

    it("a 503 with retryAfter carries Retry-After", async () => {
      h.api.faults.status(503, { retryAfter: 30 });
      expect((await h.getPage(A.group, A.custom)).headers.get("retry-after")).toBe("30");
    });

    it("a fault for one operation leaves the others alone, and lasts N calls", async () => {
      h.api.faults.status(500, { operation: "getPage", times: 2 });
      expect((await h.createLog(BODY)).status).toBe(201);
      expect((await h.getPage(A.group, A.custom)).status).toBe(500);
      expect((await h.getPage(A.group, A.custom)).status).toBe(500);
      expect((await h.getPage(A.group, A.custom)).status).toBe(200);
    });

    it("faults answer before authentication: they stand for the infrastructure", async () => {
      h.api.faults.status(503);
      expect((await h.getPage(A.group, A.custom, { key: null })).status).toBe(503);
    });

    it("a dropped connection rejects like fetch (TypeError) and stores nothing", async () => {
      h.api.faults.networkError();
      const before = h.api.state.snapshot();
      await expect(h.createLog(BODY)).rejects.toThrow(TypeError);
      expect(h.api.state.snapshot()).toBe(before);
      expect(h.api.requests.last()).toMatchObject({ status: 0, operation: "createProspectLog" });
    });

    it("a connection dropped after processing loses the response but keeps the write; a retry with the key replays it", async () => {
      h.api.faults.networkError({ afterProcessing: true });
      const body = { ...BODY, idempotencyKey: "retry-me" };
      await expect(h.createLog(body)).rejects.toThrow(TypeError);
      expect(h.api.state.prospectLogs.list()).toHaveLength(1);
      const retry = await h.createLog(body);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(h.api.state.prospectLogs.list()).toHaveLength(1);
    });

    it("a malformed body: the status of the processed request, a body that is not JSON", async () => {
      h.api.faults.malformedBody();
      const answer = await h.createLog(BODY);
      expect(answer.status).toBe(201);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(() => JSON.parse(answer.text)).toThrow(SyntaxError);
      expect(h.api.state.prospectLogs.list()).toHaveLength(1);
    });

    it("latency delays the answer, which is otherwise normal: a later call overtakes it", async () => {
      // Long enough that the prompt call is answered first on a loaded machine too.
      h.api.faults.latency(500);
      const order: string[] = [];
      const delayed = h.getPage(A.group, A.custom).then((a) => order.push(`delayed ${a.status}`));
      const prompt = h.getPage(A.group, A.nullName).then((a) => order.push(`prompt ${a.status}`));
      await Promise.all([delayed, prompt]);
      expect(order).toEqual(["prompt 200", "delayed 200"]);
    });
  });
}
