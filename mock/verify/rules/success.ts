/**
 * What every operation of the table answers for a resource that exists (its sample's: given as an
 * input, or made first through the API's own operations): its row's success status with a body of
 * its result schema (spec 4, 7), and, for an operation whose path names the resource, a 404 to
 * another tenant's key, as if it did not exist (docs/behaviour.md "Authentication and tenancy").
 * @module
 */
import { expectContract, expectProblem, expectStatus } from "../expect.js";
import { OPERATION_SAMPLES } from "../operations/index.js";
import { type ContractRule, type Exchange, INPUT_OPTIONS, RuleSkipped, type VerifyContext } from "../rule.js";
import type { Sample } from "./samples.js";

/**
 * Sends each sample to its resource that exists and checks the answer. A sample whose input is
 * missing (or given wrong) is passed over; the rule then ends skipped, naming them (a wrong input
 * in its own words, an input problem).
 */
async function eachExisting(context: VerifyContext, samples: readonly Sample[], check: (sample: Sample, path: string) => Promise<void>) {
  const skipped: RuleSkipped[] = [];
  for (const sample of samples) {
    const missing = (sample.needs ?? []).filter((input) => (input === "otherTenantKey" ? !context.otherTenant : context[input] === undefined));
    if (missing.length > 0) {
      skipped.push(new RuleSkipped(`${sample.route.name} needs ${missing.map((input) => INPUT_OPTIONS[input]).join(", ")}`));
      continue;
    }
    const path = await Promise.resolve(sample.existing?.(context) ?? sample.path(context)).catch((error: unknown) => {
      if (error instanceof RuleSkipped) return skipped.push(error), undefined;
      throw error;
    });
    if (path !== undefined) await check(sample, path);
  }
  const wrong = skipped.find((skip) => skip.inputProblem);
  if (wrong !== undefined) throw wrong;
  if (skipped.length > 0) throw new RuleSkipped(`the other operations held; not checked: ${skipped.map((skip) => skip.message).join("; ")}`);
}

/** Sends a sample's request to `path`, with this key. */
const send = (context: VerifyContext, sample: Sample, path: string, key: "caller" | "other-tenant"): Promise<Exchange> =>
  context.send(sample.route.method, path, { key, ...(sample.body !== undefined && { json: sample.body }) });

/** The rules. */
export const successRules: readonly ContractRule[] = [
  {
    id: "operations.success",
    operation: null,
    class: "spec",
    title:
      "every operation answers a valid request for a resource that exists with its success status and a body of its result schema (an operation whose resource is an input, `--page` or `--subscription`, is checked when it is given)",
    source: "spec 4, 7",
    run: (context) =>
      eachExisting(context, OPERATION_SAMPLES, async (sample, path) => {
        const exchange = await send(context, sample, path, "caller");
        expectStatus(exchange, sample.route.success);
        expectContract(exchange, sample.route.name);
      }),
  },
  {
    id: "operations.other-tenant",
    operation: null,
    class: "mock decision",
    title:
      "every operation whose path names a resource answers another tenant's key for a resource that exists 404 not_found, as if it did not exist",
    source: "docs/behaviour.md, Authentication and tenancy",
    needs: ["otherTenantKey"],
    run: (context) =>
      eachExisting(
        context,
        OPERATION_SAMPLES.filter((sample) => sample.route.params.length > 0),
        async (sample, path) => expectProblem(await send(context, sample, path, "other-tenant"), 404, "not_found"),
      ),
  },
];
