/**
 * `defineConformanceSuite`: every rule of the spec and of BEHAVIOUR.md (webhook delivery aside),
 * as HTTP cases run against any target. Each test starts from the fixtures at T0.
 */
import { afterAll, beforeAll, beforeEach, describe } from "vitest";
import { Harness, type MakeTarget } from "./harness.js";
import { authenticationRules } from "./rules/authentication.js";
import { contractRules } from "./rules/contract.js";
import { createProspectLogRules } from "./rules/create-prospect-log.js";
import { errorRules } from "./rules/errors.js";
import { faultRules } from "./rules/faults.js";
import { getPageRules } from "./rules/get-page.js";
import { idempotencyRules } from "./rules/idempotency.js";
import { jsonLimitRules } from "./rules/json-limits.js";
import { methodRules } from "./rules/methods.js";
import { prospectResolutionRules } from "./rules/prospect-resolution.js";
import { stateRules } from "./rules/state.js";
import { updateSubscriptionRules } from "./rules/update-subscription.js";
import { urlEmailRules } from "./rules/url-email.js";

export type { Answer, ConformanceTarget, MakeTarget } from "./harness.js";

/**
 * Registers the conformance suite for one target.
 * @param name - names the target in the test titles, e.g. "api.fetch"
 * @param makeTarget - builds the target around a mock created with the suite's options
 * @param options - `baseUrl` to create the mock under (default the host root https://api.prospectkit.test)
 */
export function defineConformanceSuite(name: string, makeTarget: MakeTarget, options: { baseUrl?: string } = {}): void {
  describe(`conformance through ${name}`, () => {
    const h = new Harness(options.baseUrl);
    beforeAll(async () => {
      h.target = await makeTarget(h.options());
    });
    afterAll(async () => {
      await h.target?.close?.();
    });
    beforeEach(() => h.reset());

    contractRules(h);
    authenticationRules(h);
    errorRules(h);
    createProspectLogRules(h);
    prospectResolutionRules(h);
    idempotencyRules(h);
    getPageRules(h);
    updateSubscriptionRules(h);
    stateRules(h);
    faultRules(h);
    jsonLimitRules(h);
    methodRules(h);
    urlEmailRules(h);
  });
}
