/**
 * `runVerify`: runs every contract rule black box against a deployment and reports each as
 * passed, failed, skipped (an input is missing, or the data does not allow it) or not run (the
 * budget was spent, the run was interrupted). A failure at any step fails its rule and the run
 * goes on. The subscription it is given is read first, read back at the end whatever happened in
 * between (a write whose answer was lost may have been applied) and put back to its `url`, `events`
 * and `active` when anything differs; the report says "restored" only when a read-back shows it. A
 * run whose budget left rules not run is incomplete (exit code 3), never a pass.
 * @module
 */
import type { OperationId } from "../../src/operation-table.js";
import { BudgetSpent, createHttpContext, type HttpContext, type HttpContextOptions, Interrupted, Unreachable } from "./http-context.js";
import { firstRead, RESTORE_REQUESTS, type RestoreOutcome, restoreSubscription, subscriptionPath } from "./inputs.js";
import { createPace } from "./pace.js";
import { type ContractRule, type Exchange, INPUT_OPTIONS, type RuleClass, RuleFailure, RuleSkipped, type SentRequest } from "./rule.js";
import { CONTRACT_RULES } from "./rules/index.js";

/** The default request budget of a run (a run with every input needs well under half of it). */
export const DEFAULT_MAX_REQUESTS = 600;

/** The default pace, in requests per second. */
export const DEFAULT_RATE = 10;

/** The exit code of a run whose request budget left rules not run, with no failure that counts: not a pass. */
export const EXIT_INCOMPLETE = 3;

/** What became of one rule. */
export interface RuleResult {
  readonly id: string;
  readonly operation: OperationId | null;
  readonly class: RuleClass;
  readonly title: string;
  readonly source: string;
  readonly status: "passed" | "failed" | "skipped" | "not run";
  /** Why it failed, was skipped or did not run. */
  readonly message?: string;
  /** The request that showed the failure (never a key: which key it carried is named). */
  readonly request?: SentRequest;
  /** Its answer: status and body (keys redacted). */
  readonly answer?: { readonly status: number; readonly body: unknown };
}

/** What a run found. */
export interface VerifyReport {
  readonly baseUrl: string;
  readonly strict: boolean;
  readonly requests: number;
  readonly maxRequests: number;
  readonly durationMs: number;
  readonly results: readonly RuleResult[];
  /** The subscription given, and whether the answers show it put back (`undefined`: none given). */
  readonly restore?: RestoreOutcome;
  /** Inputs the deployment does not know (a `--page` or `--subscription` it answers 404): a usage error. */
  readonly inputProblems?: readonly string[];
  /** Why the run could not go on (unreachable, interrupted), if it stopped early. */
  readonly stopped?: string;
  /**
   * 0: passed; 1: a failure that counts (spec failures; every failure with `strict`); 2: the run
   * could not be done or completed (unreachable, interrupted, an input the deployment does not
   * know, a subscription not shown restored); 3: incomplete, the request budget was spent with
   * rules not run and no failure that counts ({@link EXIT_INCOMPLETE}).
   */
  readonly exitCode: 0 | 1 | 2 | typeof EXIT_INCOMPLETE;
}

/** How to run. */
export interface VerifyOptions extends Omit<HttpContextOptions, "maxRequests" | "rate"> {
  readonly maxRequests?: number;
  readonly rate?: number;
  /** Fail on mock-decision failures too (default: only spec failures fail). */
  readonly strict?: boolean;
  /** Called before each rule runs. */
  readonly onProgress?: (done: number, total: number, rule: ContractRule) => void;
  /** The rules to run (default every rule). */
  readonly rules?: readonly ContractRule[];
}

const base = (rule: ContractRule) => ({ id: rule.id, operation: rule.operation, class: rule.class, title: rule.title, source: rule.source });

/** What a rule's error makes of it (an error that is not the rule's own: the run stops or the budget is spent). */
function resultOf(rule: ContractRule, error: unknown, last: Exchange | undefined): RuleResult {
  const shown = (exchange: Exchange | undefined) =>
    exchange === undefined ? {} : { request: exchange.request, answer: { status: exchange.answer.status, body: exchange.answer.body } };
  if (error instanceof RuleFailure) return { ...base(rule), status: "failed", message: error.message, ...shown(error.exchange) };
  if (error instanceof RuleSkipped) return { ...base(rule), status: "skipped", message: error.message };
  if (error instanceof BudgetSpent) return { ...base(rule), status: "not run", message: error.message };
  // An answer the rule could not read as it expects (a body of another shape): the rule fails on it.
  return {
    ...base(rule),
    status: "failed",
    message: `the answer could not be read as the rule expects (${(error as Error).message})`,
    ...shown(last),
  };
}

/**
 * Runs the contract rules against a deployment.
 * @param options - where, with which key and inputs, the budget, the pace
 * @returns the report
 */
export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const { maxRequests = DEFAULT_MAX_REQUESTS, rate = DEFAULT_RATE, strict = false, rules = CONTRACT_RULES, subscription } = options;
  const started = performance.now();
  // The restore's requests are kept back from the rules' budget, so the budget holds with them.
  const reserve = subscription === undefined ? 0 : RESTORE_REQUESTS;
  // One pace for the whole run: the restore keeps it with the rules.
  const pace = createPace(rate);
  const context = createHttpContext({ ...options, maxRequests: maxRequests - reserve, budgetShown: maxRequests, rate, pace });
  const results: RuleResult[] = [];
  const inputProblems = new Set<string>();
  let stopped: string | undefined;
  try {
    // Read before any rule can change it.
    if (subscription !== undefined)
      await firstRead(context).catch((error: unknown) => {
        if (!(error instanceof BudgetSpent)) throw error;
      });
    for (const [index, rule] of rules.entries()) {
      if (stopped !== undefined) {
        results.push({ ...base(rule), status: "not run", message: stopped });
        continue;
      }
      const missing = (rule.needs ?? []).filter((input) =>
        input === "page" ? context.page === undefined : input === "subscription" ? context.subscription === undefined : !context.otherTenant,
      );
      if (missing.length > 0) {
        results.push({ ...base(rule), status: "skipped", message: `needs ${missing.map((input) => INPUT_OPTIONS[input]).join(" and ")}` });
        continue;
      }
      options.onProgress?.(index, rules.length, rule);
      const before = context.exchanges().length;
      try {
        await rule.run(context);
        results.push({ ...base(rule), status: "passed" });
      } catch (error) {
        if (error instanceof Interrupted || error instanceof Unreachable) {
          stopped = error instanceof Interrupted ? "interrupted" : error.message;
          results.push({ ...base(rule), status: "not run", message: stopped });
          continue;
        }
        if (error instanceof RuleSkipped && error.inputProblem) inputProblems.add(error.message);
        const mine = context.exchanges().slice(before);
        results.push(resultOf(rule, error, mine.at(-1)));
      }
    }
  } catch (error) {
    stopped = error instanceof Unreachable || error instanceof Interrupted ? error.message : `unexpected: ${(error as Error).message}`;
    for (const rule of rules.slice(results.length)) results.push({ ...base(rule), status: "not run", message: stopped });
  }
  let restore: RestoreOutcome | undefined;
  let restoreRequests = 0;
  if (subscription !== undefined) {
    // Never interrupted, at the run's pace, outside the rules' budget.
    const { signal: _ignored, ...rest } = options;
    const restoring = createHttpContext({ ...rest, maxRequests: RESTORE_REQUESTS, rate, pace });
    restore = await restoreAfter(context, restoring, subscription);
    restoreRequests = restoring.sent;
  }
  const notRun = results.filter((result) => result.status === "not run").length;
  const counted = results.filter((result) => result.status === "failed" && (strict || result.class === "spec"));
  const exitCode =
    stopped !== undefined || restore?.ok === false || inputProblems.size > 0 ? 2 : counted.length > 0 ? 1 : notRun > 0 ? EXIT_INCOMPLETE : 0;
  return {
    baseUrl: options.baseUrl,
    strict,
    requests: context.sent + restoreRequests,
    maxRequests,
    durationMs: Math.round(performance.now() - started),
    results,
    ...(restore && { restore }),
    ...(inputProblems.size > 0 && { inputProblems: [...inputProblems] }),
    ...(stopped !== undefined && { stopped }),
    exitCode,
  };
}

/**
 * The restore at the end of a run: from the first read's values, or what became of a subscription
 * whose first read showed none.
 */
async function restoreAfter(context: HttpContext, restoring: HttpContext, subscription: string): Promise<RestoreOutcome> {
  // The first read is memoized: asking again sends nothing, and gives what it gave (or threw).
  const first = await firstRead(context).catch((error: unknown) => error as Error);
  if (first instanceof BudgetSpent || first instanceof Interrupted)
    return { subscription, ok: true, detail: "no request reached it (the run ended before its first read)" };
  if (first instanceof Error)
    return {
      subscription,
      ok: false,
      detail: `its first read (PATCH {}) got no answer (${first.message}): what it held is not known; check it by hand`,
    };
  if (first.values === undefined && first.exchange.answer.status === 404)
    return { subscription, ok: true, detail: "not known with this key: its first read (PATCH {}) answered 404 (an input problem)" };
  if (first.values === undefined)
    return {
      subscription,
      ok: false,
      detail: `its first read (PATCH {}) answered ${first.exchange.answer.status} without a url, events and active verify can show, so no read-back can show it as it was; check it by hand`,
    };
  const path = subscriptionPath(subscription);
  return restoreSubscription((json) => restoring.send("PATCH", path, { json }), subscription, first.values);
}
