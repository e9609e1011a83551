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
  // 190: the budget is spent in the middle of the rules that change the subscription (they start near request 180).
  it.each([5, 12, 30, 190])("--max-requests %i: at most that many requests reach the deployment, the restore included", async (max) => {
    const { fetch, options, requests, subscription } = setup();
    const report = await runVerify({ ...options, maxRequests: max, fetch });
    expect(requests()).toBeLessThanOrEqual(max);
    expect(report.requests).toBe(requests());
    expect(report.results.some((result) => result.status === "not run" && /--max-requests/.test(result.message ?? ""))).toBe(true);
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(report.restore?.ok).toBe(true);
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
    // 13: 8 for the rules, 5 kept for the restore, of which a run that changed nothing sends only the read-back.
    await runVerify({ ...options, maxRequests: 13, rate: 20, fetch });
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
  });
});

describe("the subscription is put back to its url, events and active", () => {
  it("after a whole run that changed each of them", async () => {
    const { fetch, options, subscription, api } = setup();
    const report = await runVerify({ ...options, fetch });
    expect(report.restore).toEqual({
      subscription: INPUTS.subscription,
      ok: true,
      detail: "restored to its url, events and active (shown by the answers)",
      readBack: ORIGINAL,
    });
    expect(subscription()).toEqual(ORIGINAL);
    // It did change them on the way (url, active and events were each set by a rule).
    const patches = api.requests.list().filter((entry) => entry.operation === "updateWebhookSubscription" && entry.status === 200);
    expect(patches.flatMap((entry) => Object.keys(entry.requestBody as object))).toEqual(expect.arrayContaining(["url", "events", "active"]));
  });

  it("after a run the network cut short once the subscription was changed (exit code 2)", async () => {
    const { api, subscription, options } = setup();
    const working = deploymentFetch(api);
    let changes = 0;
    let cut = false;
    const flaky: typeof fetch = async (url, init) => {
      if (cut) return Promise.reject(new TypeError("fetch failed"));
      const changing = init?.method === "PATCH" && typeof init.body === "string" && init.body.startsWith('{"url"');
      if (changing && ++changes === 4) cut = true;
      return working(url as string, init);
    };
    const report = await runVerify({ ...options, fetch: flaky });
    expect(report.stopped).toMatch(/failed/);
    expect(report.exitCode).toBe(2);
    // The network stays down for the restore too: the report says it could not be put back, never "restored".
    expect(report.restore).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^no read-back showed it restored in 5 requests \(last: restoring failed .*put it back by hand/),
    });
    expect(subscription()).not.toEqual(ORIGINAL);
  });

  it("after a run the network cut short once, the restore putting it back and showing it", async () => {
    const { api, subscription, options } = setup();
    const working = deploymentFetch(api);
    let changes = 0;
    const flaky: typeof fetch = async (url, init) => {
      const changing = init?.method === "PATCH" && typeof init.body === "string" && init.body.startsWith('{"url"');
      if (changing && ++changes === 4) return Promise.reject(new TypeError("fetch failed"));
      return working(url as string, init);
    };
    const report = await runVerify({ ...options, fetch: flaky });
    expect(report.stopped).toMatch(/failed/);
    expect(report.restore).toEqual({
      subscription: INPUTS.subscription,
      ok: true,
      detail: "restored to its url, events and active (shown by the answers)",
      readBack: ORIGINAL,
    });
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

describe("a subscription the run cannot show restored", () => {
  it("events: null (every kind): the rules that set events are skipped, url and active are put back, and the run refuses to say restored (exit code 2)", async () => {
    const { api, fetch, options } = setup();
    const original = { url: "https://hooks.example.com/every-kind", active: true };
    api.state.webhookSubscriptions.create({ id: "webhooksubscription_all", tenantId: "tenant_a", ...original });
    const report = await runVerify({ ...options, subscription: "webhooksubscription_all", fetch });
    const skipped = report.results.filter((result) => result.status === "skipped");
    expect(skipped.map((result) => result.id).sort()).toEqual([
      "subscription.events-closed-list",
      "subscription.events-deduplicated",
      "subscription.events-empty",
      "subscription.events-members",
      "subscription.events-null",
    ]);
    expect(new Set(skipped.map((result) => result.message))).toEqual(
      new Set(["the subscription's events read null (every kind), which no request can put back: give --subscription one with an events list"]),
    );
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(report.restore).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^url and active restored, but its events read null .*put it back by hand/),
    });
    expect(report.exitCode).toBe(2);
    const { url, events, active } = api.state.webhookSubscriptions.get("webhooksubscription_all", { tenantId: "tenant_a" })!;
    expect({ url, events, active }).toEqual({ ...original, events: null });
  });
});

describe("what a run writes", () => {
  it("only prospect logs tagged prospectkit-verify (its source, or its type beside a 1-character source), in either tenant, and the subscription", async () => {
    const { fetch, options, api } = setup();
    await runVerify({ ...options, fetch });
    for (const tenantId of ["tenant_a", "tenant_b"]) {
      const logs = api.state.prospectLogs.list({ tenantId });
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.filter((log) => !log.source.startsWith(VERIFY_SOURCE) && log.type !== VERIFY_SOURCE)).toEqual([]);
    }
    // Every request the deployment accepted with a method that is not safe is one of the two operations that write.
    const accepted = api.requests.list().filter((entry) => !["GET", "HEAD", "OPTIONS"].includes(entry.method) && entry.status < 300);
    expect(new Set(accepted.map((entry) => entry.operation))).toEqual(new Set(["createProspectLog", "updateWebhookSubscription"]));
  });
});
