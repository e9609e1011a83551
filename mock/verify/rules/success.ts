/**
 * What every operation of the table answers for a resource that exists (its sample's: given as an
 * input, or made first through the API's own operations): its row's success status with a body of
 * its result schema (spec 4, 7), and, for an operation whose path names the resource, a 404 to
 * another tenant's key, as if it did not exist (docs/behaviour.md "Authentication and tenancy").
 * @module
 */
import { expectContract, expectProblem, expectStatus } from "../expect.js";
import { OPERATION_SAMPLES } from "../operations/index.js";
import { type ContractRule, INPUT_OPTIONS, type RuleInput, RuleSkipped, type VerifyContext } from "../rule.js";
import type { Sample } from "./samples.js";

/** Whether the run was given an input. */
const given = (context: VerifyContext, input: RuleInput): boolean =>
  input === "otherTenantKey" ? context.otherTenant : context[input] !== undefined;

/**
 * The path of `sample`'s resource, or why there is none to check: an input not given, or given
 * wrong (an input problem, in the input's own words).
 */
async function existingPath(context: VerifyContext, sample: Sample): Promise<string | RuleSkipped> {
  const missing = (sample.needs ?? []).filter((input) => !given(context, input));
  if (missing.length > 0) return new RuleSkipped(`${sample.route.name} needs ${missing.map((input) => INPUT_OPTIONS[input]).join(", ")}`);
  try {
    return sample.existing === undefined ? sample.path(context) : await sample.existing(context);
  } catch (error) {
    if (error instanceof RuleSkipped) return error;
    throw error;
  }
}

/** Ends a rule that skipped some operations: a wrong input as such (its own words), else naming what was not checked. */
function reportSkipped(skipped: readonly RuleSkipped[], what: string): void {
  const wrong = skipped.find((skip) => skip.inputProblem);
  if (wrong !== undefined) throw wrong;
  if (skipped.length > 0) throw new RuleSkipped(`the other operations ${what}; not checked: ${skipped.map((skip) => skip.message).join("; ")}`);
}

/** The rules. */
export const successRules: readonly ContractRule[] = [
  {
    id: "operations.success",
    operation: null,
    class: "spec",
    title:
      "every operation answers a valid request for a resource that exists with its success status and a body of its result schema (an operation whose resource is an input, `--page` or `--subscription`, is checked when it is given)",
    source: "spec 4, 7",
    async run(context) {
      const skipped: RuleSkipped[] = [];
      for (const sample of OPERATION_SAMPLES) {
        const path = await existingPath(context, sample);
        if (path instanceof RuleSkipped) {
          skipped.push(path);
          continue;
        }
        const exchange = await context.send(sample.route.method, path, sample.body === undefined ? {} : { json: sample.body });
        expectStatus(exchange, sample.route.success);
        expectContract(exchange, sample.route.name);
      }
      reportSkipped(skipped, "answered as their rows say");
    },
  },
  {
    id: "operations.other-tenant",
    operation: null,
    class: "mock decision",
    title:
      "every operation whose path names a resource answers another tenant's key for a resource that exists 404 not_found, as if it did not exist",
    source: "docs/behaviour.md, Authentication and tenancy",
    needs: ["otherTenantKey"],
    async run(context) {
      const skipped: RuleSkipped[] = [];
      for (const sample of OPERATION_SAMPLES.filter((entry) => entry.route.params.length > 0)) {
        const path = await existingPath(context, sample);
        if (path instanceof RuleSkipped) {
          skipped.push(path);
          continue;
        }
        const options = { key: "other-tenant" as const, ...(sample.body !== undefined && { json: sample.body }) };
        expectProblem(await context.send(sample.route.method, path, options), 404, "not_found");
      }
      reportSkipped(skipped, "kept their resources from another tenant");
    },
  },
];
