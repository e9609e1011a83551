/**
 * `runVerify` is safe against a real service: the request budget holds (the restore included),
 * the subscription is put back to its url, events and active after a normal run, a run cut short
 * by the network and an interrupted run (Ctrl+C), and it writes only prospect logs tagged
 * `prospectkit-verify`.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_REQUESTS, runVerify, VERIFY_SOURCE } from "../../mock/verify/index.js";
import { deploymentFetch, deploymentMock, INPUTS, KEYS, ORIGINAL } from "./support/deployments.js";

function setup() {
  const api = deploymentMock();
  let requests = 0;
  const fetch = deploymentFetch(api, undefined, () => requests++);
  const subscription = () => {
    const { url, events, active } = api.state.webhookSubscriptions.get(INPUTS.subscription, { tenantId: "tenant_a" })!;
    return { url, events, active };
  };
  const options = { baseUrl: api.baseUrl, apiKey: KEYS.a, otherTenantKey: KEYS.b, ...INPUTS, rate: 1000 };
  return { api, fetch, subscription, options, requests: () => requests };
}

describe("the request budget", () => {
  it.each([5, 12, 30])("--max-requests %i: at most that many requests reach the deployment, the restore included", async (max) => {
    const { fetch, options, requests, subscription } = setup();
    const report = await runVerify({ ...options, maxRequests: max, fetch });
    expect(requests()).toBeLessThanOrEqual(max);
    expect(report.requests).toBe(requests());
    expect(report.results.some((result) => result.status === "not run" && /--max-requests/.test(result.message ?? ""))).toBe(true);
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(subscription()).toEqual(ORIGINAL);
  });

  it(`a whole run with every input stays well inside the default budget (${DEFAULT_MAX_REQUESTS})`, async () => {
    const { fetch, options, requests } = setup();
    const report = await runVerify({ ...options, fetch });
    expect(report.exitCode).toBe(0);
    expect(requests()).toBeLessThanOrEqual(DEFAULT_MAX_REQUESTS / 2);
  });

  it("the pace holds: --rate 20 spaces 8 requests over at least 350 ms", async () => {
    const { fetch, options } = setup();
    const started = performance.now();
    await runVerify({ ...options, maxRequests: 8, rate: 20, fetch });
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
  });
});

describe("the subscription is put back to its url, events and active", () => {
  it("after a whole run that changed each of them", async () => {
    const { fetch, options, subscription, api } = setup();
    const report = await runVerify({ ...options, fetch });
    expect(report.restore).toEqual({ subscription: INPUTS.subscription, ok: true, detail: "restored to its url, events and active" });
    expect(subscription()).toEqual(ORIGINAL);
    // It did change them on the way (url, active and events were each set by a rule).
    const patches = api.requests.list().filter((entry) => entry.operation === "updateWebhookSubscription" && entry.status === 200);
    expect(patches.flatMap((entry) => Object.keys(entry.requestBody as object))).toEqual(expect.arrayContaining(["url", "events", "active"]));
  });

  it("after a run the network cut short (exit code 2)", async () => {
    const { api, subscription, options } = setup();
    let sent = 0;
    const working = deploymentFetch(api);
    const flaky: typeof fetch = (url, init) => (++sent === 38 ? Promise.reject(new TypeError("fetch failed")) : working(url as string, init));
    const report = await runVerify({ ...options, fetch: flaky });
    expect(report.stopped).toMatch(/failed/);
    expect(report.exitCode).toBe(2);
    expect(subscription()).toEqual(ORIGINAL);
  });

  it("after an interrupted run (Ctrl+C) mid-way through the subscription rules: the rest is not run, exit code 2", async () => {
    const { fetch, options, subscription } = setup();
    const stop = new AbortController();
    const report = await runVerify({
      ...options,
      fetch,
      signal: stop.signal,
      onProgress: (_, __, rule) => rule.id === "subscription.url-invalid" && stop.abort(),
    });
    expect(report.results.find((result) => result.id === "subscription.url-exact")?.status).toBe("passed");
    expect(report.results.filter((result) => result.status === "not run").map((result) => result.message)).toContain("interrupted");
    expect(report.exitCode).toBe(2);
    expect(subscription()).toEqual(ORIGINAL);
  });
});

describe("what a run writes", () => {
  it("only prospect logs with source prospectkit-verify, and nothing else but the subscription", async () => {
    const { fetch, options, api } = setup();
    await runVerify({ ...options, fetch });
    const logs = api.state.prospectLogs.list({ tenantId: "tenant_a" });
    expect(logs.length).toBeGreaterThan(0);
    expect(new Set(logs.map((log) => log.source.slice(0, VERIFY_SOURCE.length)))).toEqual(new Set([VERIFY_SOURCE]));
    const writes = api.requests.list().filter((entry) => entry.method !== "GET");
    expect(new Set(writes.map((entry) => entry.operation ?? entry.path))).toEqual(
      new Set(["createProspectLog", "updateWebhookSubscription", "/v0/prospect_logs"]),
    );
  });
});
