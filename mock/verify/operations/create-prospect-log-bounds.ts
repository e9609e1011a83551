/**
 * Contract rules of the field bounds of a create (spec 2.1 and 8): one rule per bounded field,
 * each sending the values at and just past its bounds (length 0, 1, the maximum and one more; the
 * pattern's edges). Accepted values are sent with a fresh prospect ID (or only identifiers no
 * prospect holds) and a `prospectkit-verify` source or type, so nothing lands on a real prospect.
 * And the email grammar docs/behaviour.md decides.
 * @module
 */
import { expectAccepted, expectRefused } from "../expect.js";
import type { ContractRule, VerifyContext } from "../rule.js";
import { VERIFY_SOURCE } from "../rules/samples.js";
import { createLog, freshProspectId } from "./create-prospect-log-fresh.js";

/** A string of exactly `length` characters starting with `prefix` (cut when it is longer). */
const sized = (prefix: string, length: number) => prefix.padEnd(length, "x").slice(0, length);

type Fields = Readonly<Record<string, unknown>>;

/** One bounded field: the values it must accept and refuse, each as the fields of one request. */
interface Bound {
  readonly field: string;
  /** The bound, as §8 writes it. */
  readonly bound: string;
  readonly accepted: (context: VerifyContext) => readonly Fields[];
  readonly refused: readonly Fields[];
}

/** The bounds of spec §8, each field at its edges. */
export const FIELD_BOUNDS: readonly Bound[] = [
  {
    field: "source",
    bound: "length 1 to 100",
    // A 1-character source cannot say prospectkit-verify: its type does.
    accepted: () => [{ source: "v", type: VERIFY_SOURCE }, { source: sized(`${VERIFY_SOURCE}-`, 100) }],
    refused: [{ source: "" }, { source: sized(`${VERIFY_SOURCE}-`, 101) }],
  },
  {
    field: "type",
    bound: "length 1 to 100",
    accepted: () => [{ type: "v" }, { type: sized(`${VERIFY_SOURCE}-`, 100) }],
    refused: [{ type: "" }, { type: sized(`${VERIFY_SOURCE}-`, 101) }],
  },
  {
    field: "idempotencyKey",
    bound: "length 1 to 255",
    // A 1-character key is sent with the same body on every run: a later run (within the key's window) gets the same entry replayed.
    accepted: (context) => [
      { idempotencyKey: "~", payload: { check: "prospectkit-verify", key: "one character" } },
      { idempotencyKey: sized(context.idempotencyKey(), 255) },
    ],
    refused: [{ idempotencyKey: "" }, { idempotencyKey: "k".repeat(256) }],
  },
  {
    field: "name",
    bound: "length 1 to 255",
    accepted: () => [
      { name: "v", prospectId: freshProspectId() },
      { name: sized("prospectkit verify ", 255), prospectId: freshProspectId() },
    ],
    refused: [{ name: "" }, { name: "n".repeat(256) }],
  },
  {
    field: "prospectId",
    bound: "minimum length 1 and the prospect pattern",
    accepted: () => [{ prospectId: freshProspectId() }],
    refused: [
      { prospectId: "" },
      { prospectId: freshProspectId().slice(0, -1) },
      { prospectId: `${freshProspectId()}0` },
      { prospectId: freshProspectId().replace("prospect_", "prospect_A").slice(0, 35) },
      { prospectId: freshProspectId().replace("prospect_", "prospects_").slice(0, 36) },
      { prospectId: freshProspectId().replace(/.$/, "-") },
    ],
  },
  {
    field: "linkedinProfileUrl",
    bound: "minimum length 1",
    accepted: () => [{ linkedinProfileUrl: "v", prospectId: freshProspectId() }],
    refused: [{ linkedinProfileUrl: "" }],
  },
  {
    field: "phoneNumber",
    bound: "a plus sign, a first digit 1 to 9, then 1 to 14 further digits",
    accepted: () => [
      { phoneNumber: "+99", prospectId: freshProspectId() },
      { phoneNumber: "+999999999999999", prospectId: freshProspectId() },
    ],
    refused: [
      { phoneNumber: "" },
      { phoneNumber: "+9" },
      { phoneNumber: "+9999999999999999" },
      { phoneNumber: "+0999999999" },
      { phoneNumber: "999999999" },
      { phoneNumber: "+999 999 999" },
    ],
  },
];

/** One rule per bounded field. */
const boundRules: readonly ContractRule[] = FIELD_BOUNDS.map(
  (bound): ContractRule => ({
    id: `create.bounds.${bound.field}`,
    operation: "createProspectLog",
    class: "spec",
    title: `${bound.field} keeps its bound (${bound.bound}): the values at it are accepted, those just past it refused`,
    source: "spec 2.1, 8",
    async run(context) {
      for (const fields of bound.accepted(context)) expectAccepted(await createLog(context, fields), 201);
      for (const fields of bound.refused) expectRefused(await createLog(context, fields));
    },
  }),
);

/** An address of exactly `length` characters: a local part with `word`, then labels of at most 63 characters and `.com`. */
function emailOfLength(length: number, word: string): string {
  const local = `pv${word}`;
  let remaining = length - local.length - 1 - ".com".length;
  const labels: string[] = [];
  while (remaining > 63) {
    const size = Math.min(63, remaining - 2);
    labels.push("a".repeat(size));
    remaining -= size + 1;
  }
  labels.push("a".repeat(remaining));
  return `${local}@${labels.join(".")}.com`;
}

/** The email grammar of docs/behaviour.md at its edges. */
const emailRule: ContractRule = {
  id: "create.email-format",
  operation: "createProspectLog",
  class: "mock decision",
  title:
    "email follows the documented grammar: dot-atom characters, a punycode top label, a 64-character local part and 254 characters are accepted; quoted strings, IP literals, a hyphen ending a label, doubled dots, a 65-character local part and 255 characters are refused",
  source: "docs/behaviour.md, Field rules the spec leaves open",
  async run(context) {
    const word = context.fresh().slice(0, 12);
    const accepted = [
      `prospectkit-verify.${word}@example.com`,
      `prospectkit-verify&x=y+${word}@example.xn--p1ai`,
      `${sized(`pv.${word}`, 64)}@example.com`,
      emailOfLength(254, word),
    ];
    const refused = [
      `"prospectkit verify"@example.com`,
      `prospectkit-verify@[192.0.2.1]`,
      "prospectkit-verify@x-.example",
      "prospectkit-verify..x@example.com",
      `${"v".repeat(65)}@example.com`,
      emailOfLength(255, word),
      "prospectkit-verify",
    ];
    for (const email of accepted) expectAccepted(await createLog(context, { email, prospectId: freshProspectId() }), 201);
    for (const email of refused) expectRefused(await createLog(context, { email, prospectId: freshProspectId() }));
  },
};

/** The rules. */
export const rules: readonly ContractRule[] = [...boundRules, emailRule];
