/**
 * The contract check's part of each operation, by name (a row without its entry, or an entry
 * without its row, fails `tsc`): its sample request (what the rules that hold for every operation
 * send: authentication, methods, bodies, unknown routes, its success answer) and its own rules.
 * An operation's rules live in files named after it (`create-prospect-log.ts`, and an aspect after
 * a dash: `create-prospect-log-bounds.ts`); a small one may be written here.
 * @module
 */
import { OPERATION_TABLE, type PerOperation } from "../../../src/operation-table.js";
import type { ContractRule } from "../rule.js";
import type { Sample, SampleInput } from "../rules/samples.js";
import * as create from "./create-prospect-log.js";
import * as createBounds from "./create-prospect-log-bounds.js";
import * as createMatching from "./create-prospect-log-matching.js";
import * as createReplays from "./create-prospect-log-replays.js";
import * as page from "./get-page.js";
import * as update from "./update-webhook-subscription.js";
import * as updateValues from "./update-webhook-subscription-values.js";

/** What the contract check holds of one operation. */
interface OperationChecks {
  /** Its sample request. */
  readonly sample: SampleInput;
  /** Its own rules, in the order they run. */
  readonly rules: readonly ContractRule[];
}

const PER_OPERATION: PerOperation<OperationChecks> = {
  createProspectLog: { sample: create.sample, rules: [...create.rules, ...createBounds.rules, ...createMatching.rules, ...createReplays.rules] },
  getPage: { sample: page.sample, rules: page.rules },
  updateWebhookSubscription: { sample: update.sample, rules: [...update.rules, ...updateValues.rules] },
};

/** Every operation with its sample request, in the table's order. */
export const OPERATION_SAMPLES: readonly Sample[] = /* @__PURE__ */ OPERATION_TABLE.map((row) => ({ route: row, ...PER_OPERATION[row.name].sample }));

/** The samples of the operations that take a JSON body. */
export const BODY_SAMPLES: readonly Sample[] = /* @__PURE__ */ OPERATION_SAMPLES.filter((sample) => sample.route.request !== undefined);

/** Each operation's own rules, in the table's order. */
export const OPERATION_RULES: readonly ContractRule[] = /* @__PURE__ */ OPERATION_TABLE.flatMap((row) => PER_OPERATION[row.name].rules);

/**
 * The first sample whose row (and sample) is as `what` says: a rule that needs one operation as
 * the vehicle of a check about the API as a whole chooses it by what its row says, never by name.
 * @throws {TypeError} at load, when no operation of the table is such
 */
function sampleWhere(what: string, predicate: (sample: Sample) => boolean): Sample {
  const found = OPERATION_SAMPLES.find(predicate);
  if (found === undefined) throw new TypeError(`mock/verify: no operation of the table is ${what}`);
  return found;
}

/** A write that needs no input: a POST with a body (every run can send it; each call adds a record tagged as `verify`'s). */
export const WRITE_SAMPLE: Sample = /* @__PURE__ */ sampleWhere(
  "a POST with a body",
  (sample) => sample.route.method === "POST" && sample.route.request !== undefined && (sample.needs ?? []).length === 0,
);

/** A write whose body has a field that takes any JSON object: the vehicle of the JSON limits. */
export const OPEN_SAMPLE: Sample = /* @__PURE__ */ sampleWhere(
  "a write with a field that takes any JSON object",
  (sample) => sample.openField !== undefined && (sample.needs ?? []).length === 0,
);

/** A read of a resource named by path IDs (a key sent on it can change nothing). */
export const READ_SAMPLE: Sample = /* @__PURE__ */ sampleWhere(
  "a GET with path IDs",
  (sample) => sample.route.method === "GET" && sample.route.params.length > 0,
);

/** A write with a body to a resource named by path IDs (its body is checked before the resource is looked up). */
export const RESOURCE_WRITE_SAMPLE: Sample = /* @__PURE__ */ sampleWhere(
  "a write with a body and path IDs",
  (sample) => sample.route.request !== undefined && sample.route.params.length > 0,
);
