/** Every contract rule, in the order `verify` runs them (writes to the subscription last but one; the key check last). */
import type { ContractRule } from "../rule.js";
import { apiRules, keyRule } from "./api.js";
import { createProspectLogRules } from "./create-prospect-log.js";
import { getPageRules } from "./get-page.js";
import { updateSubscriptionRules } from "./update-subscription.js";

export { VERIFY_SOURCE } from "./create-prospect-log.js";

/** The contract rules, each with its class and what it checks. */
export const CONTRACT_RULES: readonly ContractRule[] = [...apiRules, ...createProspectLogRules, ...getPageRules, ...updateSubscriptionRules, keyRule];
