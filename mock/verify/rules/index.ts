/**
 * Every contract rule, in the order `verify` runs them: the API as a whole (every operation's
 * success answer among them), each operation (the
 * subscription's writes last but the answers' rules), then the rules that read every answer of the run.
 * @module
 */

import { OPERATION_RULES } from "../operations/index.js";
import type { ContractRule } from "../rule.js";
import { answerRules } from "./answers.js";
import { authRules } from "./auth.js";
import { bodyRules } from "./bodies.js";
import { routeRules } from "./routes.js";
import { successRules } from "./success.js";

export { VERIFY_SOURCE } from "./samples.js";

/** The contract rules, each with its class and what it checks. */
export const CONTRACT_RULES: readonly ContractRule[] = [
  ...authRules,
  ...routeRules,
  ...successRules,
  ...bodyRules,
  ...OPERATION_RULES,
  ...answerRules,
];
