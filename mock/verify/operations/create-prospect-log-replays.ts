/** Contract rules of idempotency keys on a create (spec 4.1 rule 4 leaves it open; docs/behaviour.md "Idempotency" decides). */
import { REPLAYED_HEADER, REQUEST_ID_HEADER } from "../../../src/headers.js";
import { expectAccepted, expectEqual, expectFieldErrors, expectProblem } from "../expect.js";
import { type ContractRule, type Exchange, expectThat } from "../rule.js";
import { VERIFY_PAYLOAD, VERIFY_SOURCE } from "../rules/samples.js";
import { createLog, freshProspectId } from "./create-prospect-log-fresh.js";

const operation = "createProspectLog" as const;
const source = "docs/behaviour.md, Idempotency";

/** The answer replays `first`: 201, the same body, `idempotent-replayed: true`, its own request ID. */
function expectReplay(replay: Exchange, first: Exchange): void {
  expectAccepted(replay, 201);
  expectEqual(replay.answer.body, first.answer.body, "the first answer's body (same IDs, createdAt, createdProspect)", replay);
  expectThat(replay.answer.headers.get(REPLAYED_HEADER) === "true", `expected the header ${REPLAYED_HEADER}: true`, replay);
  const [a, b] = [first.answer.headers.get(REQUEST_ID_HEADER), replay.answer.headers.get(REQUEST_ID_HEADER)];
  expectThat(b !== null && b !== a, `expected a ${REQUEST_ID_HEADER} of its own, got the first answer's (${a})`, replay);
}

/** A new entry: 201 without `idempotent-replayed`. */
function expectNewEntry(exchange: Exchange): void {
  expectAccepted(exchange, 201);
  expectThat(exchange.answer.headers.get(REPLAYED_HEADER) === null, `expected a new entry, got the header ${REPLAYED_HEADER}`, exchange);
}

/** The rules. */
export const rules: readonly ContractRule[] = [
  {
    id: "create.idempotent-replay",
    operation,
    class: "mock decision",
    title:
      "the same idempotencyKey with the same body replays the first answer: 201, the same body (IDs, createdAt, createdProspect true), idempotent-replayed: true, a request ID of its own",
    source,
    async run(context) {
      const body = { idempotencyKey: context.idempotencyKey(), prospectId: freshProspectId() };
      const first = await createLog(context, body);
      expectNewEntry(first);
      expectEqual(first.answer.body.createdProspect, true, "createdProspect", first);
      expectReplay(await createLog(context, body), first);
    },
  },
  {
    id: "create.idempotency-same-body",
    operation,
    class: "mock decision",
    title: 'the body is compared after defaults and regardless of key order: no type and type "webhook" are the same request',
    source,
    async run(context) {
      const idempotencyKey = context.idempotencyKey();
      const first = await createLog(context, { idempotencyKey });
      expectNewEntry(first);
      const reordered = { type: "webhook", idempotencyKey, payload: VERIFY_PAYLOAD, source: VERIFY_SOURCE };
      expectReplay(await context.send("POST", first.request.path, { json: reordered }), first);
    },
  },
  {
    id: "create.idempotency-key-reused",
    operation,
    class: "mock decision",
    title: "the same idempotencyKey with a different body (a changed, added or removed field) is 422 idempotency_key_reused",
    source,
    async run(context) {
      const idempotencyKey = context.idempotencyKey();
      expectNewEntry(await createLog(context, { idempotencyKey, type: "prospectkit_verify" }));
      expectProblem(await createLog(context, { idempotencyKey, type: "prospectkit_verify_other" }), 422, "idempotency_key_reused");
      expectProblem(
        await createLog(context, { idempotencyKey, type: "prospectkit_verify", name: "prospectkit verify" }),
        422,
        "idempotency_key_reused",
      );
      expectProblem(await createLog(context, { idempotencyKey }), 422, "idempotency_key_reused");
    },
  },
  {
    id: "create.idempotency-refused-request",
    operation,
    class: "mock decision",
    title: "a request refused by validation does not use up its key: the corrected request with it is a new entry",
    source,
    async run(context) {
      const idempotencyKey = context.idempotencyKey();
      expectFieldErrors(await createLog(context, { idempotencyKey, name: "" }), [["/name", "too_short"]]);
      expectNewEntry(await createLog(context, { idempotencyKey }));
    },
  },
  {
    id: "create.idempotency-tenant-scope",
    operation,
    class: "mock decision",
    title: "a key is scoped to its tenant: another tenant's request with the same key and another body is a new entry of its own",
    source,
    needs: ["otherTenantKey"],
    async run(context) {
      const idempotencyKey = context.idempotencyKey();
      const mine = await createLog(context, { idempotencyKey });
      expectNewEntry(mine);
      const theirs = await createLog(context, { idempotencyKey, type: "prospectkit_verify_other" }, { key: "other-tenant" });
      expectNewEntry(theirs);
      expectThat(theirs.answer.body.prospectLogId !== mine.answer.body.prospectLogId, "expected an entry of its own", theirs);
    },
  },
];
