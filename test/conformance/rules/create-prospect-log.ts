/**
 * Rules of `POST /v0/prospect_logs` (spec 2.1, 2.2, 4.1, 8): every field bound, `type` defaulting
 * to `webhook`, the stored values echoed, and the result's exact shape.
 */
import { describe, expect, it } from "vitest";
import { PROSPECT_LOG_ID_PATTERN, ProspectLog } from "../../../src/schemas/index.js";
import { T0_ISO } from "../fixtures.js";
import { expectFieldErrors, type Harness } from "../harness.js";

const str = (n: number, ch = "a") => ch.repeat(n);
const ULID26 = "01hzy8k3m4n5p6q7r8s9t0v1wq";
const BASE = { source: "crm", payload: { plan: "pro" } };

/** [rule, changes to a valid body, expected field errors]. `undefined` removes the field. */
const FIELD_CASES: readonly [string, Record<string, unknown>, (readonly [string, string])[]][] = [
  ["source of 1 character is accepted", { source: "a" }, []],
  ["source of 100 characters is accepted", { source: str(100) }, []],
  ["source of 0 characters is rejected", { source: "" }, [["/source", "too_short"]]],
  ["source of 101 characters is rejected", { source: str(101) }, [["/source", "too_long"]]],
  ["source is required", { source: undefined }, [["/source", "required"]]],
  ["source must be a string", { source: 1 }, [["/source", "invalid_type"]]],
  ["type of 1 character is accepted", { type: "t" }, []],
  ["type of 100 characters is accepted", { type: str(100) }, []],
  ["type of 0 characters is rejected", { type: "" }, [["/type", "too_short"]]],
  ["type of 101 characters is rejected", { type: str(101) }, [["/type", "too_long"]]],
  ["type null is rejected (only omission defaults)", { type: null }, [["/type", "invalid_type"]]],
  ["payload {} is accepted", { payload: {} }, []],
  ["payload with any nested content is accepted", { payload: { a: [1, { b: null }], "": true, __proto__x: 1 } }, []],
  ["payload is required", { payload: undefined }, [["/payload", "required"]]],
  ["payload must not be an array", { payload: [] }, [["/payload", "invalid"]]],
  ["payload must not be null", { payload: null }, [["/payload", "invalid"]]],
  ["payload must not be a string", { payload: "{}" }, [["/payload", "invalid"]]],
  ["prospectId with the prospect pattern is accepted", { prospectId: `prospect_${ULID26}` }, []],
  [
    "prospectId empty is rejected",
    { prospectId: "" },
    [
      ["/prospectId", "too_short"],
      ["/prospectId", "invalid_format"],
    ],
  ],
  ["prospectId with 25 characters is rejected", { prospectId: `prospect_${ULID26.slice(1)}` }, [["/prospectId", "invalid_format"]]],
  ["prospectId with 27 characters is rejected", { prospectId: `prospect_${ULID26}0` }, [["/prospectId", "invalid_format"]]],
  ["prospectId in upper case is rejected", { prospectId: `prospect_${ULID26.toUpperCase()}` }, [["/prospectId", "invalid_format"]]],
  ["prospectId with another prefix is rejected", { prospectId: `prospectlog_${ULID26}` }, [["/prospectId", "invalid_format"]]],
  ["email a@b.co is accepted", { email: "a@b.co" }, []],
  ["email without @ is rejected", { email: "ab.co" }, [["/email", "invalid_format"]]],
  ["email empty is rejected", { email: "" }, [["/email", "invalid_format"]]],
  ["phoneNumber +12 (first digit and 1 more) is accepted", { phoneNumber: "+12" }, []],
  ["phoneNumber of 15 digits is accepted", { phoneNumber: "+123456789012345" }, []],
  ["phoneNumber +1 (no further digit) is rejected", { phoneNumber: "+1" }, [["/phoneNumber", "invalid_format"]]],
  ["phoneNumber of 16 digits is rejected", { phoneNumber: "+1234567890123456" }, [["/phoneNumber", "invalid_format"]]],
  ["phoneNumber starting +0 is rejected", { phoneNumber: "+0123" }, [["/phoneNumber", "invalid_format"]]],
  ["phoneNumber without + is rejected", { phoneNumber: "14155550100" }, [["/phoneNumber", "invalid_format"]]],
  ["phoneNumber with spaces is rejected", { phoneNumber: "+1 415 555 0100" }, [["/phoneNumber", "invalid_format"]]],
  ["linkedinProfileUrl of 1 character is accepted", { linkedinProfileUrl: "x" }, []],
  ["linkedinProfileUrl empty is rejected", { linkedinProfileUrl: "" }, [["/linkedinProfileUrl", "too_short"]]],
  ["idempotencyKey of 1 character is accepted", { idempotencyKey: "k" }, []],
  ["idempotencyKey of 255 characters is accepted", { idempotencyKey: str(255, "k") }, []],
  ["idempotencyKey empty is rejected", { idempotencyKey: "" }, [["/idempotencyKey", "too_short"]]],
  ["idempotencyKey of 256 characters is rejected", { idempotencyKey: str(256, "k") }, [["/idempotencyKey", "too_long"]]],
  ["name of 1 character is accepted", { name: "N" }, []],
  ["name of 255 characters is accepted", { name: str(255, "n") }, []],
  ["name of 256 characters is rejected", { name: str(256, "n") }, [["/name", "too_long"]]],
  ["a field name is escaped in its pointer", { "a/b~c": 1 }, [["/a~1b~0c", "unknown_field"]]],
];

function withChanges(changes: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...BASE };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

/** Registers the rules. */
export function createProspectLogRules(h: Harness): void {
  describe("create prospect log: field rules (spec 2.1 and 8)", () => {
    it.each(FIELD_CASES)("%s", async (_, changes, errors) => {
      const answer = await h.createLog(withChanges(changes));
      if (errors.length === 0) expect(answer.status).toBe(201);
      else expectFieldErrors(answer, errors);
    });

    it("an own __proto__ key at the top level is an unknown field", async () => {
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: '{"source":"crm","payload":{},"__proto__":{"admin":true}}' });
      expectFieldErrors(answer, [["/__proto__", "unknown_field"]]);
    });

    it("a __proto__ key inside payload is kept whole", async () => {
      const answer = await h.call("POST", "/v0/prospect_logs", { raw: '{"source":"crm","payload":{"__proto__":{"admin":true}}}' });
      expect(answer.status).toBe(201);
      const log = h.api.state.prospectLogs.get(answer.body.prospectLogId)!;
      expect(Object.hasOwn(log.payload, "__proto__")).toBe(true);
      expect(JSON.stringify(log.payload)).toBe('{"__proto__":{"admin":true}}');
    });
  });

  describe("create prospect log: the result (spec 2.2, 4.1)", () => {
    it("201 with exactly prospectId, prospectLogId, createdAt, createdProspect, source, type", async () => {
      const answer = await h.createLog(BASE);
      expect(answer.status).toBe(201);
      expect(Object.keys(answer.body).sort()).toEqual(["createdAt", "createdProspect", "prospectId", "prospectLogId", "source", "type"]);
      expect(ProspectLog.safeParse(answer.body).success).toBe(true);
      expect(answer.body.prospectLogId).toMatch(PROSPECT_LOG_ID_PATTERN);
    });

    it("createdAt is the mock clock's time as YYYY-MM-DDTHH:mm:ss.sssZ", async () => {
      h.advance(1);
      expect((await h.createLog(BASE)).body.createdAt).toBe("2024-02-29T12:00:00.001Z");
      expect(T0_ISO).toBe("2024-02-29T12:00:00.000Z");
    });

    it.each([
      ["omitted type is stored as webhook", {}, "webhook"],
      ["a given type is stored as given", { type: "page_view" }, "page_view"],
      ["type webhook given explicitly", { type: "webhook" }, "webhook"],
    ])("%s, and the response echoes the stored source and type", async (_, changes, type) => {
      const answer = await h.createLog({ ...BASE, source: "hubspot", ...changes });
      expect({ source: answer.body.source, type: answer.body.type }).toEqual({ source: "hubspot", type });
      const stored = h.api.state.prospectLogs.get(answer.body.prospectLogId)!;
      expect({ source: stored.source, type: stored.type }).toEqual({ source: "hubspot", type });
    });

    it("the payload is stored whole", async () => {
      const payload = { nested: { list: [1, "two", null, { deep: true }] }, unicode: "ü 😀" };
      const answer = await h.createLog({ ...BASE, payload });
      expect(h.api.state.prospectLogs.get(answer.body.prospectLogId)!.payload).toEqual(payload);
    });

    it("every log gets a new ID, in creation order", async () => {
      const first = await h.createLog(BASE);
      const second = await h.createLog(BASE);
      expect(first.body.prospectLogId).not.toBe(second.body.prospectLogId);
      expect(first.body.prospectLogId < second.body.prospectLogId).toBe(true);
    });
  });
}
