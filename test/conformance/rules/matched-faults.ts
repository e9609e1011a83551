/**
 * Faults aimed at one request: a fault with a `match` on a path parameter or a body field of its
 * operation applies to the requests that carry that value only; every other request passes as if
 * it were not armed. One row per field a match may name (test/mock/fault-match.test.ts checks the
 * table against `MATCH_FIELDS`), then every kind of fault on a parameter and on a body field. Only
 * public entries are imported: the suite also runs against the packed package under msw 2.
 */
import { describe, expect, it } from "vitest";
import type { OperationId } from "../../../mock/index.js";
import { A, KNOWN, PHONE_ONLY, SUBSCRIPTIONS } from "../fixtures.js";
import { type Answer, expectProblem, type Harness } from "../harness.js";

/** One field a match names: a request that carries the value, and one that does not. */
interface MatchRow {
  readonly operation: OperationId;
  readonly field: string;
  readonly value: string | boolean;
  readonly hit: (h: Harness) => Promise<Answer>;
  readonly miss: (h: Harness) => Promise<Answer>;
  /** What both answer without the fault. */
  readonly status: number;
}

const log = (fields: Record<string, unknown>) => (h: Harness) => h.createLog({ source: "web", payload: {}, ...fields });
const patch = (id: string, fields: Record<string, unknown>) => (h: Harness) => h.patchSubscription(id, fields);

export const MATCH_ROWS: readonly MatchRow[] = [
  {
    operation: "getPage",
    field: "pageGroupId",
    value: A.group,
    hit: (h) => h.getPage(A.group, A.custom),
    miss: (h) => h.getPage(A.otherGroup, A.inOtherGroup),
    status: 200,
  },
  {
    operation: "getPage",
    field: "pageId",
    value: A.oddPage,
    hit: (h) => h.getPage(A.oddGroup, A.oddPage),
    miss: (h) => h.getPage(A.group, A.custom),
    status: 200,
  },
  {
    operation: "updateWebhookSubscription",
    field: "subscriptionId",
    value: SUBSCRIPTIONS.all,
    hit: patch(SUBSCRIPTIONS.all, { active: true }),
    miss: patch(SUBSCRIPTIONS.list, { active: true }),
    status: 200,
  },
  {
    operation: "updateWebhookSubscription",
    field: "url",
    value: "https://hooks.example.com/hit",
    hit: patch(SUBSCRIPTIONS.all, { url: "https://hooks.example.com/hit" }),
    miss: patch(SUBSCRIPTIONS.all, { url: "https://hooks.example.com/miss" }),
    status: 200,
  },
  {
    operation: "updateWebhookSubscription",
    field: "active",
    value: false,
    hit: patch(SUBSCRIPTIONS.all, { active: false }),
    miss: patch(SUBSCRIPTIONS.all, { active: true }),
    status: 200,
  },
  { operation: "createProspectLog", field: "source", value: "crm", hit: log({ source: "crm" }), miss: log({ source: "web" }), status: 201 },
  { operation: "createProspectLog", field: "type", value: "signup", hit: log({ type: "signup" }), miss: log({ type: "visit" }), status: 201 },
  {
    operation: "createProspectLog",
    field: "prospectId",
    value: KNOWN.id,
    hit: log({ prospectId: KNOWN.id }),
    miss: log({ prospectId: PHONE_ONLY.id }),
    status: 201,
  },
  {
    operation: "createProspectLog",
    field: "email",
    value: "hit@example.com",
    hit: log({ email: "hit@example.com" }),
    miss: log({ email: "miss@example.com" }),
    status: 201,
  },
  {
    operation: "createProspectLog",
    field: "phoneNumber",
    value: "+14155550123",
    hit: log({ phoneNumber: "+14155550123" }),
    miss: log({ phoneNumber: "+14155550124" }),
    status: 201,
  },
  {
    operation: "createProspectLog",
    field: "linkedinProfileUrl",
    value: "https://www.linkedin.com/in/hit/",
    hit: log({ linkedinProfileUrl: "https://www.linkedin.com/in/hit/" }),
    miss: log({ linkedinProfileUrl: "https://www.linkedin.com/in/miss/" }),
    status: 201,
  },
  {
    operation: "createProspectLog",
    field: "idempotencyKey",
    value: "key-hit",
    hit: log({ idempotencyKey: "key-hit" }),
    miss: log({ idempotencyKey: "key-miss" }),
    status: 201,
  },
  {
    operation: "createProspectLog",
    field: "name",
    value: "Hit Person",
    hit: log({ name: "Hit Person" }),
    miss: log({ name: "Miss Person" }),
    status: 201,
  },
];

/** The two rows every kind of fault runs on: a path parameter and a body field. */
const BY_PARAM = MATCH_ROWS.find((row) => row.field === "pageId")!;
const BY_BODY = MATCH_ROWS.find((row) => row.field === "source")!;

/** How each kind of fault is armed with a match, and what a request it hits gets. */
const KINDS = [
  {
    kind: "status",
    arm: (h: Harness, row: MatchRow) => h.api.faults.status(503, { operation: row.operation, match: { [row.field]: row.value } }),
    expectHit: async (hit: Promise<Answer>) => expectProblem(await hit, 503, "internal_error"),
  },
  {
    kind: "network-error",
    arm: (h: Harness, row: MatchRow) => h.api.faults.networkError({ operation: row.operation, match: { [row.field]: row.value } }),
    expectHit: (hit: Promise<Answer>) => expect(hit).rejects.toThrow(TypeError),
  },
  {
    kind: "malformed-body",
    arm: (h: Harness, row: MatchRow) => h.api.faults.malformedBody({ operation: row.operation, match: { [row.field]: row.value } }),
    expectHit: async (hit: Promise<Answer>) => {
      const { text } = await hit;
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
    },
  },
  {
    kind: "latency",
    arm: (h: Harness, row: MatchRow) => h.api.faults.latency(60, { operation: row.operation, match: { [row.field]: row.value } }),
    expectHit: async (hit: Promise<Answer>) => {
      const started = performance.now();
      await hit;
      expect(performance.now() - started).toBeGreaterThanOrEqual(55);
    },
  },
] as const;

/** Registers the rules. */
export function matchedFaultRules(h: Harness): void {
  describe("faults aimed at one request (match)", () => {
    it.each(MATCH_ROWS)("$operation matched on $field: only a request carrying it triggers and consumes the fault", async (row) => {
      h.api.faults.status(503, { operation: row.operation, match: { [row.field]: row.value } });
      expect((await row.miss(h)).status).toBe(row.status);
      expect(h.api.faults.pending()).toHaveLength(1);
      expectProblem(await row.hit(h), 503, "internal_error");
      expect(h.api.faults.pending()).toEqual([]);
      expect((await row.hit(h)).status).toBe(row.status);
    });

    describe.each(KINDS)("a $kind fault carries a match", ({ arm, expectHit }) => {
      it.each([BY_PARAM, BY_BODY])("on $field: the other requests pass, the matching one takes it", async (row) => {
        arm(h, row);
        expect((await row.miss(h)).status).toBe(row.status);
        expect(h.api.faults.pending()).toHaveLength(1);
        await expectHit(row.hit(h));
        expect(h.api.faults.pending()).toEqual([]);
      });
    });

    it("a fault matched on a body field is not taken by a body that cannot be read: the 400 comes first", async () => {
      h.api.faults.status(503, { operation: "createProspectLog", match: { source: "crm" } });
      expectProblem(await h.call("POST", "/v0/prospect_logs", { raw: '{"source":"crm",' }), 400, "invalid_request");
      expect(h.api.faults.pending()).toHaveLength(1);
    });

    it("a fault without a match is taken before one matched on the body, whatever the order they were armed in", async () => {
      h.api.faults.status(503, { operation: "createProspectLog", match: { source: "crm" } });
      h.api.faults.status(500, { operation: "createProspectLog" });
      expectProblem(await log({ source: "crm" })(h), 500, "internal_error");
      expectProblem(await log({ source: "crm" })(h), 503, "internal_error");
    });

    it("a matched status fault still answers 401 first when its tenant's key is missing, and a matched request stores nothing", async () => {
      h.api.tenant("tenant_a").faults.status(503, { operation: "getPage", match: { pageId: A.custom } });
      expectProblem(await h.getPage(A.group, A.custom, { key: null }), 401, "missing_api_key");
      const before = h.api.state.snapshot();
      h.api.faults.status(503, { operation: "createProspectLog", match: { email: "hit@example.com" } });
      expectProblem(await log({ email: "hit@example.com" })(h), 503, "internal_error");
      expect(h.api.state.snapshot()).toBe(before);
    });

    it.each([
      ["a field the operation does not have", { operation: "getPage", match: { source: "crm" } }, /getPage has no field "source"/],
      ["a body field that holds an object", { operation: "createProspectLog", match: { payload: "x" } }, /createProspectLog has no field "payload"/],
      ["a path parameter compared with a number", { operation: "getPage", match: { pageId: 1 } }, /pageId is a path parameter/],
      [
        "a boolean field compared with a string",
        { operation: "updateWebhookSubscription", match: { active: "false" } },
        /active of updateWebhookSubscription is a boolean/,
      ],
      ["a match without an operation", { match: { pageId: A.custom } }, /a match needs an operation/],
    ] as const)("%s is refused (TypeError) and arms nothing", (_, options, message) => {
      expect(() => h.api.faults.status(503, options as never)).toThrow(message);
      expect(h.api.faults.pending()).toEqual([]);
    });
  });
}
