/**
 * The project's own mutation test of `verify`: its engine (`runVerify`, `strict`, every input
 * given) against the real mock, unmodified, then behind each single-rule mutant of
 * support/mutants/, each reached in process through the answers a server would send
 * (support/deployment-server.ts). The unmodified mock passes every rule; each mutant is killed by
 * the rule it breaks (exit code 1, every other rule still run, the subscription shown restored),
 * or, for a mutant no request can tell from a legitimate deployment, refused (exit code 2, the
 * subscription not reported restored); every rule is the target of at least one mutant. The score
 * is printed. One mutant is also run through the built CLI over real HTTP, end to end: the CLI
 * reports what the engine reports, rule by rule.
 */
import { afterAll, describe, expect, it } from "vitest";
import { CONTRACT_RULES } from "../../mock/verify/index.js";
import { runVerify, type VerifyReport } from "../../mock/verify/run.js";
import { deploymentInProcess, startDeployment } from "./support/deployment-server.js";
import { deploymentMock, INPUTS, KEYS } from "./support/deployments.js";
import { MUTANTS, type Mutant } from "./support/mutants/index.js";
import { runVerifyCli } from "./support/run-cli.js";

/**
 * Runs the engine against the mock behind `mutant` (none: the mock as it is), in process. No pace:
 * the mock in process needs none, and the pace is not what a mutant breaks (test/verify/safety.test.ts
 * proves it holds).
 */
function verifyAgainst(mutant?: Mutant): Promise<VerifyReport> {
  const api = deploymentMock();
  return runVerify({
    baseUrl: api.baseUrl,
    apiKey: KEYS.a,
    otherTenantKey: KEYS.b,
    ...INPUTS,
    strict: true,
    rate: Number.POSITIVE_INFINITY,
    fetch: deploymentInProcess(api, mutant?.make()),
  });
}

/** Each rule's outcome, as the report lists them. */
const outcomes = (report: Pick<VerifyReport, "results">) => report.results.map((result) => `${result.id}: ${result.status}`);

const killed: string[] = [];

describe("verify's mutation test (the engine in process, strict, every input)", () => {
  afterAll(() => {
    process.stdout.write(`\nverify mutation score: ${killed.length}/${MUTANTS.length} mutants killed, ${CONTRACT_RULES.length} rules\n`);
  });

  it("the unmodified mock passes every rule: 0 failed, 0 skipped, 0 not run, restored, exit code 0", async () => {
    const report = await verifyAgainst();
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    expect(report.restore).toEqual({
      subscription: "webhooksubscription_v",
      ok: true,
      detail: "restored to its url, events and active (shown by the answers)",
      readBack: { url: "https://hooks.example.com/original", events: ["form.submitted"], active: true },
    });
    expect({ exitCode: report.exitCode, rules: report.results.length }).toEqual({ exitCode: 0, rules: CONTRACT_RULES.length });
  });

  it("every rule is the target of at least one mutant, and every target is a rule", () => {
    const targets = new Set(MUTANTS.flatMap((mutant) => (mutant.rule === undefined ? [] : [mutant.rule])));
    expect(CONTRACT_RULES.map((rule) => rule.id).filter((id) => !targets.has(id))).toEqual([]);
    expect([...targets].filter((id) => !CONTRACT_RULES.some((rule) => rule.id === id))).toEqual([]);
  });

  // One after another: in process a run computes and never waits, so runs side by side would only
  // share the one thread (and each would take as long as all of them).
  describe("each mutant is killed", () => {
    it.each(MUTANTS.filter((mutant) => mutant.rule !== undefined).map((mutant) => [mutant.rule!, mutant.name, mutant] as const))(
      "%s kills: %s",
      async (rule, _, mutant) => {
        const report = await verifyAgainst(mutant);
        const failed = report.results.filter((result) => result.status === "failed").map((result) => result.id);
        expect(failed).toContain(rule);
        // A failure at any step fails its rule and the run goes on: nothing is left unrun, nothing stopped.
        expect(report.results.filter((result) => result.status === "not run")).toEqual([]);
        expect(report.stopped).toBeUndefined();
        expect(report.restore?.ok).toBe(true);
        expect(report.exitCode).toBe(1);
        killed.push(mutant.name);
      },
    );

    it.each(MUTANTS.filter((mutant) => mutant.refuses === "restored").map((mutant) => [mutant.name, mutant] as const))(
      "refused, not reported restored (exit code 2): %s",
      async (_, mutant) => {
        const report = await verifyAgainst(mutant);
        expect(report.restore?.ok).toBe(false);
        expect(report.restore?.detail).toMatch(/put it back by hand/);
        expect(report.results.filter((result) => result.status === "not run")).toEqual([]);
        expect(report.exitCode).toBe(2);
        killed.push(mutant.name);
      },
    );
  });
});

describe("verify's mutation test end to end (the built CLI, --strict, every input, over HTTP)", () => {
  // A mutant whose rule is one of many a run takes: the rest of the run passes around it.
  const mutant = MUTANTS.find((candidate) => candidate.rule === "errors.head")!;

  it(`the CLI kills a mutant (${mutant.name}) as the engine does: the same outcome for every rule, exit code 1, restored`, async () => {
    const server = await startDeployment(deploymentMock(), mutant.make());
    try {
      const { code, report } = await runVerifyCli(server.url, ["--strict", "--rate", "1000"]);
      expect(report.results.filter((result) => result.status === "failed").map((result) => result.id)).toContain("errors.head");
      expect(outcomes(report)).toEqual(outcomes(await verifyAgainst(mutant)));
      expect(report.restore?.ok).toBe(true);
      expect({ code, exitCode: report.exitCode }).toEqual({ code: 1, exitCode: 1 });
    } finally {
      await server.close();
    }
  }, 60_000);
});
