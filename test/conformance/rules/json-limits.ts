/**
 * Rules (BEHAVIOUR.md, "Errors"): JSON numbers must be finite doubles (`1e400` is a 400 at its
 * pointer, never stored as something else); nesting deeper than 64 levels is a 400 at the first
 * pointer past the limit, so that everything stored can always be read back; a body with a
 * `content-encoding` other than `identity` is a 415.
 */
import { describe, expect, it } from "vitest";
import { SUBSCRIPTIONS } from "../fixtures.js";
import { expectFieldErrors, expectProblem, type Harness } from "../harness.js";

/** The nesting limit BEHAVIOUR.md states (the suite also runs against the packed package, so it states the rule, not an import). */
const MAX_JSON_DEPTH = 64;

/** A create body whose deepest object sits at body level `level` (the body is level 1, `payload` level 2). */
export function bodyNestedTo(level: number): string {
  const inner = level - 2; // objects below payload
  return `{"source":"crm","payload":${'{"d":'.repeat(inner)}{}${"}".repeat(inner)}}`;
}

/** The pointer of the object at body level `level` in {@link bodyNestedTo}. */
export function pointerAtLevel(level: number): string {
  return `/payload${"/d".repeat(level - 2)}`;
}

/** Registers the rules. */
export function jsonLimitRules(h: Harness): void {
  const logCount = () => h.api.state.prospectLogs.list().length;

  describe("nesting deeper than 64 levels is a 400 at the first pointer past the limit", () => {
    it("64 levels (the body being level 1) are stored and read back whole", async () => {
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: bodyNestedTo(MAX_JSON_DEPTH) });
      expect(answer.status).toBe(201);
      const stored = h.api.state.prospectLogs.get(answer.body.prospectLogId)!;
      expect(JSON.stringify({ source: "crm", payload: stored.payload })).toBe(bodyNestedTo(MAX_JSON_DEPTH));
    });

    it.each([65, 66, 1000, 100_000])("%i levels: 400 too_deep at the 65th level, nothing stored", async (level) => {
      const before = h.api.state.snapshot();
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: bodyNestedTo(level) });
      expectFieldErrors(answer, [[pointerAtLevel(MAX_JSON_DEPTH + 1), "too_deep"]]);
      expect(h.api.state.snapshot()).toBe(before);
    });

    it("arrays count as levels too, in any field, and the first offending pointer is named", async () => {
      const deep = `${"[".repeat(70)}${"]".repeat(70)}`;
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: `{"source":${deep},"payload":{"a":${deep}}}` });
      expectFieldErrors(answer, [[`/source${"/0".repeat(MAX_JSON_DEPTH - 1)}`, "too_deep"]]);
    });

    it("the rule holds for every body: a PATCH nested 10,000 levels is a 400 too", async () => {
      const answer = await h.call("PATCH", `/v0/webhook_subscriptions/${SUBSCRIPTIONS.all}`, {
        raw: `{"events":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
      });
      expectFieldErrors(answer, [[`/events${"/0".repeat(MAX_JSON_DEPTH - 1)}`, "too_deep"]]);
    });
  });

  describe("JSON numbers must be finite doubles: an overflowing number is a 400 at its pointer", () => {
    it.each([
      ["1e400", "/payload/n"],
      ["-1e400", "/payload/n"],
      ["1E+999", "/payload/n"],
    ])("%s is refused at %s, nothing stored", async (number, pointer) => {
      const before = h.api.state.snapshot();
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: `{"source":"crm","payload":{"n":${number}}}` });
      expectFieldErrors(answer, [[pointer, "not_finite"]]);
      expect(h.api.state.snapshot()).toBe(before);
    });

    it("every overflowing number is named, in document order", async () => {
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: `{"source":"crm","payload":{"a":[1,1e400],"b":{"c":-1e999}}}` });
      expectFieldErrors(answer, [
        ["/payload/a/1", "not_finite"],
        ["/payload/b/c", "not_finite"],
      ]);
      expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/payload/a/1", "/payload/b/c"]);
    });

    it("a replay with 1e400 under a key first used with null is not the same body: 400, no replay", async () => {
      const first = await h.createLog({ source: "crm", payload: { n: null }, idempotencyKey: "finite-1" });
      expect(first.status).toBe(201);
      const count = logCount();
      const second = await h.call("POST", "/v0/prospect_logs", { raw: `{"source":"crm","payload":{"n":1e400},"idempotencyKey":"finite-1"}` });
      expectFieldErrors(second, [["/payload/n", "not_finite"]]);
      expect(second.headers.get("idempotent-replayed")).toBeNull();
      expect(logCount()).toBe(count);
    });

    it("1e-400 (an underflow) is a finite double, 0, and is accepted", async () => {
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: `{"source":"crm","payload":{"n":1e-400}}` });
      expect(answer.status).toBe(201);
      expect(h.api.state.prospectLogs.get(answer.body.prospectLogId)!.payload).toEqual({ n: 0 });
    });
  });

  describe("a body with a content-encoding other than identity is 415 unsupported_media_type", () => {
    it.each(["gzip", "deflate", "br", "zstd", "gzip, identity", "x-custom"])("content-encoding: %s is 415, nothing stored", async (coding) => {
      const before = h.api.state.snapshot();
      const answer = await h.createLog({ source: "crm", payload: {} }, { headers: { "content-encoding": coding } });
      expectProblem(answer, 415, "unsupported_media_type");
      expect(h.api.state.snapshot()).toBe(before);
    });

    it("a PATCH with content-encoding: gzip is 415 too", async () => {
      const answer = await h.patchSubscription(SUBSCRIPTIONS.all, {}, { headers: { "content-encoding": "gzip" } });
      expectProblem(answer, 415, "unsupported_media_type");
    });

    it.each(["identity", "Identity", ""])("content-encoding: %j is the body as sent: 201", async (coding) => {
      const answer = await h.createLog({ source: "crm", payload: {} }, { headers: { "content-encoding": coding } });
      expect(answer.status).toBe(201);
    });
  });
}
