/**
 * The success answer of every operation of the table (spec 4, 7): a valid request, with a valid
 * key, to a resource that exists (its sample's: given as an input, or made first through the API's
 * own operations) answers its row's success status with a body of its result schema.
 * @module
 */
import { expectContract, expectStatus } from "../expect.js";
import { OPERATION_SAMPLES } from "../operations/index.js";
import { type ContractRule, INPUT_OPTIONS, type RuleInput, RuleSkipped, type VerifyContext } from "../rule.js";

/** Whether the run was given an input. */
const given = (context: VerifyContext, input: RuleInput): boolean =>
  input === "otherTenantKey" ? context.otherTenant : context[input] !== undefined;

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
        const missing = (sample.needs ?? []).filter((input) => !given(context, input));
        if (missing.length > 0) {
          skipped.push(new RuleSkipped(`${sample.route.name} needs ${missing.map((input) => INPUT_OPTIONS[input]).join(", ")}`));
          continue;
        }
        let path: string;
        try {
          path = sample.existing === undefined ? sample.path(context) : await sample.existing(context);
        } catch (error) {
          if (!(error instanceof RuleSkipped)) throw error;
          skipped.push(error);
          continue;
        }
        const exchange = await context.send(sample.route.method, path, sample.body === undefined ? {} : { json: sample.body });
        expectStatus(exchange, sample.route.success);
        expectContract(exchange, sample.route.name);
      }
      // A wrong input is reported as such (its own words); a missing one names the option that would check its operation.
      const wrong = skipped.find((skip) => skip.inputProblem);
      if (wrong !== undefined) throw wrong;
      if (skipped.length > 0)
        throw new RuleSkipped(`the other operations answered as their rows say; not checked: ${skipped.map((skip) => skip.message).join("; ")}`);
    },
  },
];
