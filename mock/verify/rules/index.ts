/**
 * Every contract rule, in the order `verify` runs them: the API as a whole, each operation (the
 * subscription's writes last but the answers' rules), then the rules that read every answer of the run.
 * @module
 */
import type { ContractRule } from "../rule.js";
import { answerRules } from "./answers.js";
import { authRules } from "./auth.js";
import { bodyRules } from "./bodies.js";
import { createBoundRules } from "./create-bounds.js";
import { createProspectLogRules } from "./create-prospect-log.js";
import { getPageRules } from "./get-page.js";
import { idempotencyRules } from "./idempotency.js";
import { prospectResolutionRules } from "./prospect-resolution.js";
import { routeRules } from "./routes.js";
import { subscriptionValueRules } from "./subscription-values.js";
import { updateSubscriptionRules } from "./update-subscription.js";

export { VERIFY_SOURCE } from "./samples.js";

/** The contract rules, each with its class and what it checks. */
export const CONTRACT_RULES: readonly ContractRule[] = [
  ...authRules,
  ...routeRules,
  ...bodyRules,
  ...createProspectLogRules,
  ...createBoundRules,
  ...prospectResolutionRules,
  ...idempotencyRules,
  ...getPageRules,
  ...updateSubscriptionRules,
  ...subscriptionValueRules,
  ...answerRules,
];
