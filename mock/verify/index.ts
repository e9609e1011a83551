/**
 * The contract check: the behaviour rules of the API as shippable code, the black-box harness
 * that runs them against any deployment, and the schema check the validating proxy shares.
 * @module
 */
export { answerViolations, requestViolations } from "./exchange.js";
export { formatReport, reportJson, reportJunit, summaryOf } from "./report.js";
export type { ContractRule, Exchange, RuleClass, RuleInput, VerifyContext } from "./rule.js";
export { CONTRACT_RULES, VERIFY_SOURCE } from "./rules/index.js";
export { DEFAULT_MAX_REQUESTS, DEFAULT_RATE, EXIT_INCOMPLETE, type RuleResult, runVerify, type VerifyOptions, type VerifyReport } from "./run.js";
