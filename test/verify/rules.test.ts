/**
 * `runVerify` against deployments that deviate in known ways: each deviation is reported as the
 * right rule with its class; only spec failures fail without `--strict`; no report holds a key.
 */
import { describe, expect, it } from "vitest";
import { formatReport, reportJson, reportJunit } from "../../mock/verify/index.js";
import { runVerify } from "../../mock/verify/run.js";
import { type Deviation, deploymentFetch, deploymentMock, INPUTS, KEYS } from "./support/deployments.js";

const run = (deviation: Deviation | undefined, strict = false) => {
  const api = deploymentMock();
  return runVerify({
    baseUrl: api.baseUrl,
    apiKey: KEYS.a,
    otherTenantKey: KEYS.b,
    ...INPUTS,
    rate: 1000,
    strict,
    fetch: deploymentFetch(api, deviation),
  });
};

const failed = (report: Awaited<ReturnType<typeof run>>) =>
  report.results.filter((result) => result.status === "failed").map((result) => `${result.id} (${result.class})`);

describe("verify against the mock: every rule passes", () => {
  it("no failure, no skip, exit code 0", async () => {
    const report = await run(undefined);
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    expect(report.exitCode).toBe(0);
  });
});

describe("verify against a deliberately wrong deployment: each deviation is the right rule with its class", () => {
  it.each<[Deviation, string[], exitCode: number, strictExitCode: number]>([
    ["201 answered as 200", ["create.result (spec)", "create.type-default (spec)", "create.bounds.source (spec)"], 1, 1],
    ["createdProspect dropped", ["create.result (spec)"], 1, 1],
    // Dropping the key also drops its bound: a 256-character key is accepted, which breaks the spec.
    [
      "idempotency ignored",
      ["create.idempotent-replay (mock decision)", "create.idempotency-key-reused (mock decision)", "create.bounds.idempotencyKey (spec)"],
      1,
      1,
    ],
    ["unknown key answered 403", ["auth.unknown-key (mock decision)", "auth.before-validation (mock decision)"], 0, 1],
    ["events: [] accepted", ["subscription.events-empty (mock decision)"], 0, 1],
    ["key echoed", ["secrets.key-never-echoed (mock decision)"], 0, 1],
  ])("%s: reported as %j", async (deviation, expected, exitCode, strictExitCode) => {
    const report = await run(deviation);
    expect(failed(report)).toEqual(expect.arrayContaining(expected));
    expect(report.exitCode).toBe(exitCode);
    expect((await run(deviation, true)).exitCode).toBe(strictExitCode);
  });

  it("a contract failure at the first step (the subscription's first read answered 201): that rule fails, every other rule still runs, exit code 1", async () => {
    const report = await run("PATCH answered 201");
    expect(failed(report)).toContain("subscription.result (spec)");
    expect(report.results.filter((result) => result.status === "not run" || result.status === "skipped")).toEqual([]);
    expect(report.results.filter((result) => result.operation !== "updateWebhookSubscription" && result.status !== "passed")).toEqual([]);
    expect(report.stopped).toBeUndefined();
    expect(report.restore?.ok).toBe(true);
    expect(report.exitCode).toBe(1);
  });

  it("a page and a subscription the deployment does not know: their rules are skipped naming them, the rest runs, exit code 2", async () => {
    const api = deploymentMock();
    const report = await runVerify({
      baseUrl: api.baseUrl,
      apiKey: KEYS.a,
      page: { pageGroupId: INPUTS.page.pageGroupId, pageId: "page_typo" },
      subscription: "webhooksubscription_typo",
      rate: 1000,
      fetch: deploymentFetch(api),
    });
    expect(report.inputProblems).toEqual([
      "the deployment does not know --page pagegroup_v/page_typo with this key (GET answered 404)",
      "the deployment does not know --subscription webhooksubscription_typo with this key (PATCH {} answered 404)",
    ]);
    expect(report.results.filter((result) => result.status === "failed" || result.status === "not run")).toEqual([]);
    expect(report.results.filter((result) => result.status === "passed").length).toBeGreaterThan(40);
    expect(report.restore).toEqual({
      subscription: "webhooksubscription_typo",
      ok: true,
      detail: "not known with this key: its first read (PATCH {}) answered 404 (an input problem)",
    });
    expect(report.exitCode).toBe(2);
    expect(formatReport(report)).toContain("Input problem: the deployment does not know --page pagegroup_v/page_typo");
  });

  it("a 200 for a create is reported with its request and answer (the rule, the status, the body)", async () => {
    const report = await run("201 answered as 200");
    const result = report.results.find((entry) => entry.id === "create.result")!;
    expect(result).toMatchObject({ status: "failed", class: "spec", request: { method: "POST", path: "/v0/prospect_logs", key: "caller" } });
    expect(result.answer?.status).toBe(200);
    expect(formatReport(report)).toMatch(/FAIL +spec +create\.result.*\n.*expected status 201, got 200/);
  });

  it("an echoed key is shown nowhere: not in the table, the JSON or the JUnit file", async () => {
    const report = await run("key echoed");
    for (const text of [formatReport(report), reportJson(report), reportJunit(report)]) {
      for (const key of Object.values(KEYS)) expect(text).not.toContain(key);
      expect(text).not.toMatch(/pk_prospectkit_verify_unknown_[0-9a-f]{24}/);
    }
    expect(reportJson(report)).toContain("[redacted]");
  });
});
