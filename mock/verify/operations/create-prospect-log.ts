/** Contract rules of `POST /v0/prospect_logs`: its result, default, required fields and field types (spec 2.1, 2.2, 4.1); its field errors (docs/behaviour.md). */

import { expectAccepted, expectContract, expectEqual, expectFieldErrors, expectRefused, expectStatus } from "../expect.js";
import { type ContractRule, expectThat } from "../rule.js";
import { pathOf, ROW, type SampleInput, VERIFY_PAYLOAD, VERIFY_SOURCE } from "../rules/samples.js";
import { createLog, freshProspectId } from "./create-prospect-log-fresh.js";

/** The sample request of the rules that hold for every operation: an entry tagged as `verify`'s. */
export const sample: SampleInput = {
  path: () => pathOf(ROW.createProspectLog, () => ""),
  missingPath: () => pathOf(ROW.createProspectLog, () => ""),
  body: { source: VERIFY_SOURCE, payload: VERIFY_PAYLOAD },
  openField: "/payload",
};

const operation = "createProspectLog" as const;

/** A value of another JSON type for each field of spec 2.1 (`payload` three times: an array, null and a string are not objects). */
const WRONG_TYPES: readonly (readonly [field: string, value: unknown])[] = [
  ["source", 1],
  ["type", true],
  ["payload", []],
  ["payload", null],
  ["payload", "prospectkit-verify"],
  ["prospectId", 1],
  ["email", 1],
  ["phoneNumber", 14155550100],
  ["linkedinProfileUrl", {}],
  ["idempotencyKey", 1],
  ["name", ["prospectkit verify"]],
];

/** The rules. */
export const rules: readonly ContractRule[] = [
  {
    id: "create.result",
    operation,
    class: "spec",
    title: "a valid entry answers 201 with a ProspectLog result (every field of spec 2.2, in its format)",
    source: "spec 2.2, 4.1, 7",
    async run(context) {
      const exchange = await createLog(context, {});
      expectStatus(exchange, 201);
      expectContract(exchange, operation);
    },
  },
  {
    id: "create.type-default",
    operation,
    class: "spec",
    title: "an omitted type is stored as webhook; the answer echoes the stored source and type",
    source: "spec 4.1 rules 1 and 2",
    async run(context) {
      const omitted = await createLog(context, {});
      expectStatus(omitted, 201);
      expectEqual([omitted.answer.body.source, omitted.answer.body.type], [VERIFY_SOURCE, "webhook"], "source and type", omitted);
      const given = await createLog(context, { type: "prospectkit_verify" });
      expectStatus(given, 201);
      expectEqual(given.answer.body.type, "prospectkit_verify", "type", given);
    },
  },
  {
    id: "create.required",
    operation,
    class: "spec",
    title: "source and payload are required: an entry without either is refused",
    source: "spec 2.1, 4.1",
    async run(context) {
      expectRefused(await context.send("POST", ROW.createProspectLog.path, { json: { payload: VERIFY_PAYLOAD } }));
      expectRefused(await context.send("POST", ROW.createProspectLog.path, { json: { source: VERIFY_SOURCE } }));
    },
  },
  {
    id: "create.payload-free",
    operation,
    class: "mock decision",
    title:
      "a payload's content is free: nested objects and arrays, every JSON type and any key (the prototype's names and an empty one included) are accepted",
    source: "docs/behaviour.md, Field rules the spec leaves open",
    async run(context) {
      const raw = `{"source":"${VERIFY_SOURCE}","payload":{"check":"prospectkit-verify","__proto__":{"a":[1,-2.5e-3,true,null,"é😀"]},"constructor":{},"":{"nested":[{"x":{}}]}}}`;
      expectAccepted(await context.send("POST", ROW.createProspectLog.path, { raw }), 201);
    },
  },
  {
    id: "create.field-types",
    operation,
    class: "spec",
    title: "each field of spec 2.1 has its type: a number, boolean, array or null where a string or an object belongs is refused",
    source: "spec 2.1",
    async run(context) {
      for (const [field, value] of WRONG_TYPES) expectRefused(await createLog(context, { [field]: value }));
    },
  },
  {
    id: "create.field-errors",
    operation,
    class: "mock decision",
    title:
      "an invalid body is 400 invalid_request listing every failing field at once by JSON Pointer with its code (unknown fields such as emial included), each detail starting with the field",
    source: "docs/behaviour.md, Field errors; Request bodies are strict",
    async run(context) {
      const exchange = await createLog(context, {
        source: "",
        type: "t".repeat(101),
        prospectId: "prospect_X",
        email: "no",
        phoneNumber: "+0",
        linkedinProfileUrl: "",
        idempotencyKey: "k".repeat(256),
        name: 1,
        emial: "a@example.com",
      });
      expectFieldErrors(exchange, [
        ["/source", "too_short"],
        ["/type", "too_long"],
        ["/prospectId", "invalid_format"],
        ["/email", "invalid_format"],
        ["/phoneNumber", "invalid_format"],
        ["/linkedinProfileUrl", "too_short"],
        ["/idempotencyKey", "too_long"],
        ["/name", "invalid_type"],
        ["/emial", "unknown_field"],
      ]);
      for (const error of exchange.answer.body.errors as { pointer: string; detail: string }[])
        expectThat(
          error.detail.startsWith(`${error.pointer.slice(1)} `),
          `expected the detail of ${error.pointer} to start with its field, got ${JSON.stringify(error.detail)}`,
          exchange,
        );
    },
  },
  {
    id: "create.refused-changes-nothing",
    operation,
    class: "mock decision",
    title: "a refused entry changes nothing: a new prospectId sent with an invalid field is still unknown afterwards (the next entry creates it)",
    source: "docs/behaviour.md, The mock: Nothing changes on a rejected request",
    async run(context) {
      const prospectId = freshProspectId();
      expectRefused(await createLog(context, { prospectId, name: "" }));
      const next = await createLog(context, { prospectId });
      expectAccepted(next, 201);
      expectEqual(next.answer.body.createdProspect, true, "createdProspect (the refused entry made no prospect)", next);
    },
  },
  {
    id: "create.ids",
    operation,
    class: "mock decision",
    title: "generated IDs sort by creation time: a later entry's prospectLogId sorts after an earlier one's, and its createdAt is not earlier",
    source: "docs/behaviour.md, Identifiers and timestamps",
    async run(context) {
      const first = await createLog(context, {});
      expectAccepted(first, 201);
      const second = await createLog(context, {});
      expectAccepted(second, 201);
      const [a, b] = [first.answer.body, second.answer.body];
      expectThat(String(b.prospectLogId) > String(a.prospectLogId), `expected ${b.prospectLogId} to sort after ${a.prospectLogId}`, second);
      expectThat(String(b.createdAt) >= String(a.createdAt), `expected createdAt ${b.createdAt} not before ${a.createdAt}`, second);
    },
  },
  {
    id: "create.created-prospect",
    operation,
    class: "mock decision",
    title: "an unknown prospectId creates that prospect (createdProspect true); the next entry for it finds it (false)",
    source: "spec 4.1 rule 3; docs/behaviour.md, Create prospect log: which prospect",
    async run(context) {
      const prospectId = freshProspectId();
      const first = await createLog(context, { prospectId });
      expectStatus(first, 201);
      expectEqual([first.answer.body.prospectId, first.answer.body.createdProspect], [prospectId, true], "prospectId and createdProspect", first);
      const second = await createLog(context, { prospectId });
      expectStatus(second, 201);
      expectEqual([second.answer.body.prospectId, second.answer.body.createdProspect], [prospectId, false], "prospectId and createdProspect", second);
    },
  },
];
