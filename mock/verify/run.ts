/**
 * `runVerify`: runs every contract rule black box against a deployment and reports each as
 * passed, failed, skipped (an input is missing, or the data does not allow it) or not run (the
 * budget was spent, the run was interrupted). The subscription it is given is read first and put
 * back to its `url`, `events` and `active` at the end, whatever happened in between.
 * @module
 */
import type { OperationId } from "../../src/operations.js";
import { RuleSkipped } from "./expect.js";
import { BudgetSpent, createHttpContext, type HttpContextOptions, Interrupted, Unreachable } from "./http-context.js";
import { type ContractRule, INPUT_OPTIONS, type RuleClass, RuleFailure, type SentRequest } from "./rule.js";
import { CONTRACT_RULES } from "./rules/index.js";
import { subscriptionPath } from "./rules/update-subscription.js";

/** The default request budget of a run (every rule with every input needs well under half of it). */
export const DEFAULT_MAX_REQUESTS = 120;

/** The default pace, in requests per second. */
export const DEFAULT_RATE = 10;

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
  /** The subscription given, and whether it was put back (`undefined`: none given). */
  readonly restore?: { readonly subscription: string; readonly ok: boolean; readonly detail: string };
  /** Why the run could not go on (unreachable, interrupted), if it stopped early. */
  readonly stopped?: string;
  /** 0: passed; 1: a failure that counts (spec failures; every failure with `strict`); 2: the run could not be completed. */
  readonly exitCode: 0 | 1 | 2;
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

const RESTORE_REQUESTS = 1;

/**
 * Runs the contract rules against a deployment.
 * @param options - where, with which key and inputs, the budget, the pace
 * @returns the report
 */
export async function runVerify(options: VerifyOptions): Promise<VerifyReport> {
  const { maxRequests = DEFAULT_MAX_REQUESTS, rate = DEFAULT_RATE, strict = false, rules = CONTRACT_RULES } = options;
  const started = performance.now();
  const subscription = options.subscription;
  // The restore's request is kept back from the rules' budget, so the budget holds with it.
  const reserve = subscription === undefined ? 0 : RESTORE_REQUESTS;
  const context = createHttpContext({ ...options, maxRequests: maxRequests - reserve, rate });
  const results: RuleResult[] = [];
  let stopped: string | undefined;
  let original: { url: unknown; events: unknown; active: unknown } | undefined;
  let restore: VerifyReport["restore"];
  const base = (rule: ContractRule) => ({ id: rule.id, operation: rule.operation, class: rule.class, title: rule.title, source: rule.source });
  try {
    if (subscription !== undefined) {
      const snapshot = await context.send("PATCH", subscriptionPath(subscription), { json: {} });
      if (snapshot.answer.status !== 200 || typeof snapshot.answer.body !== "object" || snapshot.answer.body === null) {
        stopped = `cannot read --subscription ${subscription}: PATCH {} answered ${snapshot.answer.status}`;
      } else {
        const { url, events, active } = snapshot.answer.body;
        original = { url, events, active };
      }
    }
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
      try {
        await rule.run(context);
        results.push({ ...base(rule), status: "passed" });
      } catch (error) {
        if (error instanceof RuleFailure) {
          const { exchange } = error;
          results.push({
            ...base(rule),
            status: "failed",
            message: error.message,
            ...(exchange && { request: exchange.request, answer: { status: exchange.answer.status, body: exchange.answer.body } }),
          });
        } else if (error instanceof RuleSkipped) results.push({ ...base(rule), status: "skipped", message: error.message });
        else if (error instanceof BudgetSpent) results.push({ ...base(rule), status: "not run", message: error.message });
        else if (error instanceof Interrupted || error instanceof Unreachable) {
          stopped = error instanceof Interrupted ? "interrupted" : error.message;
          results.push({ ...base(rule), status: "not run", message: stopped });
        } else throw error;
      }
    }
  } catch (error) {
    stopped = error instanceof Unreachable || error instanceof Interrupted ? error.message : `unexpected: ${(error as Error).message}`;
  } finally {
    if (subscription !== undefined) restore = await restoreSubscription(options, subscription, original, rate);
  }
  const counted = results.filter((result) => result.status === "failed" && (strict || result.class === "spec"));
  const exitCode = stopped !== undefined || restore?.ok === false ? 2 : counted.length > 0 ? 1 : 0;
  return {
    baseUrl: options.baseUrl,
    strict,
    requests: context.sent + (original !== undefined ? RESTORE_REQUESTS : 0),
    maxRequests,
    durationMs: Math.round(performance.now() - started),
    results,
    ...(restore && { restore }),
    ...(stopped !== undefined && { stopped }),
    exitCode,
  };
}

/** Puts the subscription back as it was read: one PATCH of `url`, `active` and (when it was a list) `events`; never aborted. */
async function restoreSubscription(
  options: VerifyOptions,
  subscription: string,
  original: { url: unknown; events: unknown; active: unknown } | undefined,
  rate: number,
): Promise<NonNullable<VerifyReport["restore"]>> {
  if (original === undefined) return { subscription, ok: true, detail: "never read, so never changed" };
  const { signal: _ignored, ...rest } = options;
  const context = createHttpContext({ ...rest, maxRequests: RESTORE_REQUESTS, rate });
  const body = { url: original.url, active: original.active, ...(Array.isArray(original.events) && { events: original.events }) };
  try {
    // The pace holds for the restore too: one interval after the rules' last request.
    await new Promise((resolve) => setTimeout(resolve, 1000 / rate));
    const exchange = await context.send("PATCH", subscriptionPath(subscription), { json: body });
    const ok = exchange.answer.status === 200;
    return {
      subscription,
      ok,
      detail: ok ? "restored to its url, events and active" : `restoring answered ${exchange.answer.status}: put it back by hand`,
    };
  } catch (error) {
    return { subscription, ok: false, detail: `restoring failed (${(error as Error).message}): put it back by hand` };
  }
}
