/**
 * The project's own mutation test of `verify`: the built CLI (`prospectkit-mock verify --strict`,
 * every input given) against the real mock, unmodified, then behind each single-rule mutant of
 * support/mutants/. The unmodified mock passes every rule; each mutant is killed by the rule it
 * breaks (exit code 1, every other rule still run, the subscription shown restored), or, for a
 * mutant no request can tell from a legitimate deployment, refused (exit code 2, the subscription
 * not reported restored); every rule is the target of at least one mutant. The score is printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { CONTRACT_RULES } from "../../mock/verify/index.js";
import { startDeployment } from "./support/deployment-server.js";
import { deploymentMock } from "./support/deployments.js";
import { MUTANTS, type Mutant } from "./support/mutants/index.js";
import { limiter, runVerifyCli } from "./support/run-cli.js";

/** Two CLI processes at a time: the machine has two cores, shared. */
const pool = limiter(2);

/** Runs the CLI against the mock behind `mutant` (none: the mock as it is). */
async function verifyAgainst(mutant?: Mutant) {
  const server = await startDeployment(deploymentMock(), mutant?.make());
  try {
    return await runVerifyCli(server.url, ["--strict", "--rate", "1000"]);
  } finally {
    await server.close();
  }
}

const killed: string[] = [];

describe("verify's mutation test (the built CLI, --strict, every input)", () => {
  afterAll(() => {
    process.stdout.write(`\nverify mutation score: ${killed.length}/${MUTANTS.length} mutants killed, ${CONTRACT_RULES.length} rules\n`);
  });

  it("the unmodified mock passes every rule: 0 failed, 0 skipped, 0 not run, restored, exit code 0", async () => {
    const { code, report } = await pool(() => verifyAgainst());
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    expect(report.restore).toEqual({
      subscription: "webhooksubscription_v",
      ok: true,
      detail: "restored to its url, events and active (shown by the answers)",
      readBack: { url: "https://hooks.example.com/original", events: ["form.submitted"], active: true },
    });
    expect({ code, exitCode: report.exitCode, rules: report.results.length }).toEqual({ code: 0, exitCode: 0, rules: CONTRACT_RULES.length });
  }, 120_000);

  it("every rule is the target of at least one mutant, and every target is a rule", () => {
    const targets = new Set(MUTANTS.flatMap((mutant) => (mutant.rule === undefined ? [] : [mutant.rule])));
    expect(CONTRACT_RULES.map((rule) => rule.id).filter((id) => !targets.has(id))).toEqual([]);
    expect([...targets].filter((id) => !CONTRACT_RULES.some((rule) => rule.id === id))).toEqual([]);
  });

  describe.concurrent("each mutant is killed", () => {
    it.each(MUTANTS.filter((mutant) => mutant.rule !== undefined).map((mutant) => [mutant.rule!, mutant.name, mutant] as const))(
      "%s kills: %s",
      async (rule, _, mutant) => {
        const { code, report } = await pool(() => verifyAgainst(mutant));
        const failed = report.results.filter((result) => result.status === "failed").map((result) => result.id);
        expect(failed).toContain(rule);
        // A failure at any step fails its rule and the run goes on: nothing is left unrun, nothing stopped.
        expect(report.results.filter((result) => result.status === "not run")).toEqual([]);
        expect(report.stopped).toBeUndefined();
        expect(report.restore?.ok).toBe(true);
        expect({ code, exitCode: report.exitCode }).toEqual({ code: 1, exitCode: 1 });
        killed.push(mutant.name);
      },
      120_000,
    );

    it.each(MUTANTS.filter((mutant) => mutant.refuses === "restored").map((mutant) => [mutant.name, mutant] as const))(
      "refused, not reported restored (exit code 2): %s",
      async (_, mutant) => {
        const { code, report } = await pool(() => verifyAgainst(mutant));
        expect(report.restore?.ok).toBe(false);
        expect(report.restore?.detail).toMatch(/put it back by hand/);
        expect(report.results.filter((result) => result.status === "not run")).toEqual([]);
        expect({ code, exitCode: report.exitCode }).toEqual({ code: 2, exitCode: 2 });
        killed.push(mutant.name);
      },
      120_000,
    );
  });
});
