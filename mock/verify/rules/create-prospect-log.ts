/** Contract rules of `POST /v0/prospect_logs` (spec 2.1, 2.2, 4.1, 8; docs/behaviour.md "Create prospect log"). */
import { REPLAYED_HEADER } from "../../../src/headers.js";
import { createProspectLogRoute } from "../../../src/operations.js";
import { expectContract, expectEqual, expectFieldErrors, expectProblem, expectRefused, expectStatus } from "../expect.js";
import { type ContractRule, expectThat, type VerifyContext } from "../rule.js";

/** The `source` of every prospect log entry `verify` writes, so a team can find (and remove) them. */
export const VERIFY_SOURCE = "prospectkit-verify";

const PATH = createProspectLogRoute.path;
const operation = "createProspectLog" as const;
const create = (context: VerifyContext, body: Record<string, unknown>) =>
  context.send("POST", PATH, { json: { source: VERIFY_SOURCE, payload: { check: "prospectkit-verify" }, ...body } });

/** A prospect ID no deployment has seen: `prospect_` and 26 random lower-case letters or digits. */
function freshProspectId(): string {
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  const bytes = crypto.getRandomValues(new Uint8Array(26));
  return `prospect_${Array.from(bytes, (byte) => alphabet[byte % 32]).join("")}`;
}

/** The rules. */
export const createProspectLogRules: readonly ContractRule[] = [
  {
    id: "create.result",
    operation,
    class: "spec",
    title: "a valid entry answers 201 with a ProspectLog result (every field of spec 2.2, in its format)",
    source: "spec 2.2, 4.1",
    async run(context) {
      const exchange = await create(context, {});
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
      const omitted = await create(context, {});
      expectStatus(omitted, 201);
      expectEqual([omitted.answer.body.source, omitted.answer.body.type], [VERIFY_SOURCE, "webhook"], "source and type", omitted);
      const given = await create(context, { type: "prospectkit_verify" });
      expectStatus(given, 201);
      expectEqual(given.answer.body.type, "prospectkit_verify", "type", given);
    },
  },
  {
    id: "create.field-bounds",
    operation,
    class: "spec",
    title:
      "the field bounds hold: a 100-character source is accepted; a 101-character source, a phone number starting +0 and a 256-character idempotencyKey are refused",
    source: "spec 2.1, 8",
    async run(context) {
      expectStatus(await create(context, { source: `${VERIFY_SOURCE}-`.padEnd(100, "x") }), 201);
      for (const body of [{ source: "x".repeat(101) }, { phoneNumber: "+0123" }, { idempotencyKey: "k".repeat(256) }]) {
        expectRefused(await create(context, body));
      }
    },
  },
  {
    id: "create.field-errors",
    operation,
    class: "mock decision",
    title: "an invalid body is 400 invalid_request listing every failing field by JSON Pointer, unknown fields (a typo such as emial) included",
    source: "docs/behaviour.md, Errors",
    async run(context) {
      const exchange = await create(context, { name: "", emial: "a@example.com" });
      expectFieldErrors(exchange, [
        ["/name", "too_short"],
        ["/emial", "unknown_field"],
      ]);
    },
  },
  {
    id: "create.created-prospect",
    operation,
    class: "mock decision",
    title: "an unknown prospectId creates that prospect (createdProspect true); the next entry for it finds it (false)",
    source: "docs/behaviour.md, Create prospect log: which prospect",
    async run(context) {
      const prospectId = freshProspectId();
      const first = await create(context, { prospectId });
      expectStatus(first, 201);
      expectEqual([first.answer.body.prospectId, first.answer.body.createdProspect], [prospectId, true], "prospectId and createdProspect", first);
      const second = await create(context, { prospectId });
      expectStatus(second, 201);
      expectEqual([second.answer.body.prospectId, second.answer.body.createdProspect], [prospectId, false], "prospectId and createdProspect", second);
    },
  },
  {
    id: "create.idempotent-replay",
    operation,
    class: "mock decision",
    title: "the same idempotencyKey with the same body replays the first answer (same IDs, idempotent-replayed: true)",
    source: "docs/behaviour.md, Idempotency",
    async run(context) {
      const body = { idempotencyKey: context.idempotencyKey() };
      const first = await create(context, body);
      expectStatus(first, 201);
      const replay = await create(context, body);
      expectStatus(replay, 201);
      expectEqual(replay.answer.body, first.answer.body, "the replayed body", replay);
      expectThat(replay.answer.headers.get(REPLAYED_HEADER) === "true", `expected the header ${REPLAYED_HEADER}: true`, replay);
    },
  },
  {
    id: "create.idempotency-key-reused",
    operation,
    class: "mock decision",
    title: "the same idempotencyKey with a different body is 422 idempotency_key_reused",
    source: "docs/behaviour.md, Idempotency",
    async run(context) {
      const idempotencyKey = context.idempotencyKey();
      expectStatus(await create(context, { idempotencyKey }), 201);
      expectProblem(await create(context, { idempotencyKey, type: "prospectkit_verify_other" }), 422, "idempotency_key_reused");
    },
  },
];
