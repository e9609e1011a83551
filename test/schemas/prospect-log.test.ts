import { describe, expect, expectTypeOf, it } from "vitest";
import { DEFAULT_PROSPECT_LOG_TYPE, ProspectLog, ProspectLogCreate, type ProspectLogCreateParsed } from "../../src/schemas/index.js";
import { fieldErrors, str, ULID26 } from "./support/field-errors.js";

const minimal = { source: "crm", type: "note", payload: {} };

describe("spec 2.1 and 8: create request field bounds", () => {
  it.each([
    // field, value, pointer-or-null (null = accepted), code
    ["source", str(1), null, null],
    ["source", str(100), null, null],
    ["source", str(0), "/source", "too_short"],
    ["source", str(101), "/source", "too_long"],
    ["type", str(1), null, null],
    ["type", str(100), null, null],
    ["type", str(0), "/type", "too_short"],
    ["type", str(101), "/type", "too_long"],
    ["idempotencyKey", str(1), null, null],
    ["idempotencyKey", str(255), null, null],
    ["idempotencyKey", str(0), "/idempotencyKey", "too_short"],
    ["idempotencyKey", str(256), "/idempotencyKey", "too_long"],
    ["name", str(1), null, null],
    ["name", str(255), null, null],
    ["name", str(0), "/name", "too_short"],
    ["name", str(256), "/name", "too_long"],
    ["linkedinProfileUrl", str(1), null, null],
    ["linkedinProfileUrl", str(0), "/linkedinProfileUrl", "too_short"],
  ] as const)("%s of length %#: %s", (field, value, pointer, code) => {
    const errors = fieldErrors(ProspectLogCreate, { ...minimal, [field]: value });
    if (pointer === null) expect(errors).toEqual([]);
    else expect(errors).toEqual([expect.objectContaining({ pointer, code })]);
  });

  it.each([["source"], ["type"]])("%s at length 0/1/100/101 reports its own pointer", (field) => {
    expect([0, 1, 100, 101].map((n) => fieldErrors(ProspectLogCreate, { ...minimal, [field]: str(n) }).length)).toEqual([1, 0, 0, 1]);
  });
});

describe("spec 2.1 and 8: phoneNumber is E.164 (+, a digit 1-9, then 1 to 14 digits)", () => {
  it.each([
    ["+ and 2 digits (shortest)", "+12"],
    ["+ and 15 digits (longest)", "+123456789012345"],
    ["a typical number", "+14155550123"],
  ])("accepts %s", (_rule, phoneNumber) => {
    expect(fieldErrors(ProspectLogCreate, { ...minimal, phoneNumber })).toEqual([]);
  });
  it.each([
    ["a first digit 0", "+0123456"],
    ["no plus sign", "14155550123"],
    ["16 digits", "+1234567890123456"],
    ["+ and a single digit", "+1"],
    ["spaces", "+1 415 555 0123"],
    ["dashes", "+1-415-555-0123"],
    ["a letter", "+1415555012a"],
  ])("rejects %s", (_rule, phoneNumber) => {
    expect(fieldErrors(ProspectLogCreate, { ...minimal, phoneNumber })).toEqual([
      expect.objectContaining({ pointer: "/phoneNumber", code: "invalid_format" }),
    ]);
  });
});

describe("spec 2.1: required fields and optional identifiers", () => {
  it("requires source and payload, and reports both at once", () => {
    expect(fieldErrors(ProspectLogCreate, {})).toEqual([
      { pointer: "/source", code: "required", detail: "source is required" },
      { pointer: "/payload", code: "required", detail: "payload is required" },
    ]);
  });

  it("rule 4.1.1: type defaults to webhook when omitted", () => {
    const parsed = ProspectLogCreate.parse({ source: "crm", payload: {} });
    expect(parsed.type).toBe(DEFAULT_PROSPECT_LOG_TYPE);
    expect(DEFAULT_PROSPECT_LOG_TYPE).toBe("webhook");
  });

  it("keeps an explicit type", () => {
    expect(ProspectLogCreate.parse(minimal).type).toBe("note");
  });

  it.each([
    ["an array", []],
    ["null", null],
    ["a string", "{}"],
    ["a number", 1],
  ])("payload must be a JSON object, not %s", (_rule, payload) => {
    expect(fieldErrors(ProspectLogCreate, { ...minimal, payload })).toEqual([expect.objectContaining({ pointer: "/payload", code: "invalid" })]);
  });

  it("payload content is free and kept whole, even an own __proto__ key", () => {
    const payload = JSON.parse('{"__proto__":{"polluted":true},"nested":{"deep":[1,2,{"x":null}]}}') as object;
    const parsed = ProspectLogCreate.parse({ ...minimal, payload });
    expect(Object.keys(parsed.payload)).toEqual(["__proto__", "nested"]);
    expect(JSON.stringify(parsed.payload)).toBe(JSON.stringify(payload));
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it.each([
    ["a valid address", "ada@example.com", true],
    ["upper case", "Ada@Example.COM", true],
    ["no @", "ada.example.com", false],
    ["no domain dot", "ada@example", false],
    ["the empty string", "", false],
  ])("BEHAVIOUR: email must be a valid address: %s", (_rule, email, ok) => {
    expect(fieldErrors(ProspectLogCreate, { ...minimal, email }).length === 0).toBe(ok);
  });

  it("accepts every optional identifier together", () => {
    expect(
      fieldErrors(ProspectLogCreate, {
        ...minimal,
        prospectId: `prospect_${ULID26}`,
        email: "a@b.co",
        phoneNumber: "+4930123456",
        linkedinProfileUrl: "https://www.linkedin.com/in/ada",
        idempotencyKey: "k",
        name: "Ada",
      }),
    ).toEqual([]);
  });

  it("BEHAVIOUR: unknown top-level fields are rejected so that typos are caught", () => {
    expect(fieldErrors(ProspectLogCreate, { ...minimal, emial: "a@b.co", __proto__x: 1 })).toEqual([
      { pointer: "/emial", code: "unknown_field", detail: "emial is not a known field" },
      { pointer: "/__proto__x", code: "unknown_field", detail: "__proto__x is not a known field" },
    ]);
  });

  it("reports every failing field at once", () => {
    const errors = fieldErrors(ProspectLogCreate, {
      source: "",
      type: str(101),
      payload: [],
      phoneNumber: "0",
      prospectId: "prospect_x",
      extra: true,
    });
    expect(errors.map((e) => e.pointer).sort()).toEqual(["/extra", "/payload", "/phoneNumber", "/prospectId", "/source", "/type"].sort());
  });

  it.each([
    ["an array", []],
    ["null", null],
    ["a string", "x"],
  ])("the body must be an object, not %s", (_rule, body) => {
    expect(fieldErrors(ProspectLogCreate, body)).toEqual([expect.objectContaining({ pointer: "", code: "invalid_type" })]);
  });

  it("types: type is optional in input and present in output", () => {
    expectTypeOf<ProspectLogCreate>().toHaveProperty("type").toEqualTypeOf<string | undefined>();
    expectTypeOf<ProspectLogCreateParsed["type"]>().toEqualTypeOf<string>();
  });
});

describe("spec 2.2: the create result", () => {
  const result = {
    prospectId: `prospect_${ULID26}`,
    prospectLogId: `prospectlog_${ULID26}`,
    createdAt: "2024-02-29T12:00:00.000Z",
    createdProspect: true,
    source: "crm",
    type: "webhook",
  };

  it("accepts a valid result", () => {
    expect(ProspectLog.safeParse(result).success).toBe(true);
  });

  it("is forward-compatible: an unknown field is kept, not an error", () => {
    expect(ProspectLog.parse({ ...result, riskScore: 0.3 })).toMatchObject({ riskScore: 0.3 });
  });

  it.each([
    ["prospectId", undefined],
    ["prospectId", "p_1"],
    ["prospectLogId", `prospect_${ULID26}`],
    ["createdAt", "2023-02-29T00:00:00Z"],
    ["createdAt", "2024-01-01T00:00:00+01:00"],
    ["createdProspect", "true"],
    ["createdProspect", undefined],
    ["source", ""],
    ["source", str(101)],
    ["type", ""],
    ["type", str(101)],
  ])("rejects %s = %j", (field, value) => {
    expect(fieldErrors(ProspectLog, { ...result, [field]: value })).toEqual([expect.objectContaining({ pointer: `/${field}` })]);
  });

  it("types: the result type has exactly the spec's fields", () => {
    expectTypeOf<ProspectLog>().toEqualTypeOf<{
      prospectId: string;
      prospectLogId: string;
      createdAt: string;
      createdProspect: boolean;
      source: string;
      type: string;
    }>();
  });
});
