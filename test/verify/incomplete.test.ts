/**
 * A run whose request budget (`--max-requests`) leaves rules not run is never a pass: it is
 * incomplete, exit code 3, and says how many rules it did not run. A failure that counts still
 * wins (exit code 1: the deployment breaks the contract), and a run that could not be completed
 * stays 2; only a run that ran every rule it could passes.
 */
import { describe, expect, it } from "vitest";
import { formatReport, runVerify, summaryOf } from "../../mock/verify/index.js";
import { type Deviation, deploymentFetch, deploymentMock, INPUTS, KEYS } from "./support/deployments.js";

/** The exit code docs/contract-check.md gives an incomplete run. */
const INCOMPLETE = 3;

const ROWS: readonly { name: string; maxRequests?: number; inputs: boolean; deviation?: Deviation; exitCode: number; notRun: boolean }[] = [
  // The probe's case: 50 requests, most rules left, today "Result: pass".
  { name: "--max-requests 50, no inputs", maxRequests: 50, inputs: false, exitCode: INCOMPLETE, notRun: true },
  { name: "--max-requests 50, every input", maxRequests: 50, inputs: true, exitCode: INCOMPLETE, notRun: true },
  {
    name: "--max-requests 190, every input (spent among the subscription's rules)",
    maxRequests: 190,
    inputs: true,
    exitCode: INCOMPLETE,
    notRun: true,
  },
  { name: "--max-requests 1: not even the first rule", maxRequests: 1, inputs: false, exitCode: INCOMPLETE, notRun: true },
  { name: "the default budget, every input: every rule run", inputs: true, exitCode: 0, notRun: false },
  {
    name: "a spec failure within the budget outweighs the rules not run",
    maxRequests: 60,
    inputs: false,
    deviation: "201 answered as 200",
    exitCode: 1,
    notRun: true,
  },
];

describe("a budget that leaves rules not run", () => {
  it.each(ROWS)(
    "$name: exit code $exitCode",
    async ({ maxRequests, inputs, deviation, exitCode, notRun }) => {
      const api = deploymentMock();
      const report = await runVerify({
        baseUrl: api.baseUrl,
        apiKey: KEYS.a,
        ...(inputs && { otherTenantKey: KEYS.b, ...INPUTS }),
        ...(maxRequests !== undefined && { maxRequests }),
        rate: 1000,
        fetch: deploymentFetch(api, deviation),
      });
      const summary = summaryOf(report);
      expect(report.exitCode).toBe(exitCode);
      expect(summary.notRun > 0).toBe(notRun);
      const text = formatReport(report).trimEnd().split("\n");
      expect(text.at(-1)).toBe(
        exitCode === INCOMPLETE
          ? `Result: incomplete: ${summary.notRun} ${summary.notRun === 1 ? "rule" : "rules"} not run (the request budget, --max-requests ${maxRequests}, was spent; raise it)`
          : exitCode === 1
            ? "Result: FAIL"
            : "Result: pass",
      );
      // The line before says how many rules were not run.
      expect(text.at(-2)).toContain(`, ${summary.notRun} not run; `);
    },
    60_000,
  );
});
