/**
 * Issue 32, finding 8: the validating proxy's request log is exact and bounded. An entry's
 * `requestId` is the `x-request-id` the client received (the target's; the proxy's own beside
 * it); a body longer than 64 KiB is kept as its first 64 KiB of text with its full size, however
 * large the answer; an answer outside the spec's closed lists (an unknown event kind) is flagged;
 * and a recording reproduces a page's version number, however high, without a stand-in per version.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixtures } from "../../mock/control/fixtures.js";
import { createMockApi, type LoggedRequest } from "../../mock/index.js";
import { LOGGED_BODY_LIMIT } from "../../mock/observe/request-log.js";
import type { ProxyLogFields } from "../../mock/server/proxy.js";
import { createRecording } from "../../mock/server/recording.js";
import { type MockServer, startMockServer } from "../../mock/server/start.js";
import { deploymentMock, INPUTS, KEYS } from "../verify/support/deployments.js";
import { startTarget, type Target, withBody } from "./support/target.js";

const PAGE_PATH = `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId}`;
const SUB_PATH = `/v0/webhook_subscriptions/${INPUTS.subscription}`;
const CONTROL_KEY = "pk_proxy_log_control_key_01";
/** A page name of 1 MiB: an answer far larger than the log keeps. */
const HUGE = "n".repeat(1024 * 1024);

let target: Target;
let server: MockServer;
beforeAll(async () => {
  target = await startTarget(deploymentMock(), async (request, response) => {
    const path = new URL(request.url).pathname;
    if (path === PAGE_PATH && response.status === 200) return withBody(response, (body) => ({ ...body, customName: HUGE }));
    if (path === SUB_PATH && response.status === 200) return withBody(response, (body) => ({ ...body, events: ["page.deleted"] }));
    return response;
  });
  server = await startMockServer({ port: 0, apiKeys: [CONTROL_KEY], proxy: { target: target.url } });
});
afterAll(async () => {
  await server?.close();
  await target?.close();
});

async function send(method: string, path: string, json?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": KEYS.a, ...(json !== undefined && { "content-type": "application/json" }) },
    ...(json !== undefined && { body: JSON.stringify(json) }),
  });
  return { status: response.status, requestId: response.headers.get("x-request-id"), text: await response.text() };
}

const lastEntry = async (): Promise<LoggedRequest & ProxyLogFields> =>
  (
    (await (await fetch(`${server.url}/__mock/requests`, { headers: { "x-api-key": CONTROL_KEY } })).json()) as {
      data: (LoggedRequest & ProxyLogFields)[];
    }
  ).data.at(-1)!;

describe("the proxy's log entry names the request the client saw", () => {
  it("requestId is the target's x-request-id, as the client received it; the proxy's own is proxyRequestId", async () => {
    const answer = await send("POST", "/v0/prospect_logs", { source: "crm", payload: {} });
    const entry = await lastEntry();
    expect(answer.requestId).toMatch(/^req_/);
    expect(entry.requestId).toBe(answer.requestId);
    expect(entry.proxyRequestId).toMatch(/^req_/);
    expect(entry.proxyRequestId).not.toBe(answer.requestId);
  });
});

describe("the proxy's log keeps at most 64 KiB of a body", () => {
  it("an answer of 1 MiB reaches the client whole; the log keeps its first 64 KiB as text, marked with the full size", async () => {
    const answer = await send("GET", PAGE_PATH);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThan(HUGE.length);
    const entry = await lastEntry();
    expect(typeof entry.responseBody).toBe("string");
    expect(new TextEncoder().encode(entry.responseBody as string).length).toBeLessThanOrEqual(LOGGED_BODY_LIMIT);
    expect(answer.text.startsWith(entry.responseBody as string)).toBe(true);
    expect(entry.truncated).toEqual({ responseBody: new TextEncoder().encode(answer.text).length });
  });

  it("a request body over 64 KiB: cut the same way; a small one is kept whole, unmarked", async () => {
    const payload = { blob: "é".repeat(60_000) };
    await send("POST", "/v0/prospect_logs", { source: "crm", payload });
    const big = await lastEntry();
    expect(big.truncated?.requestBody).toBe(new TextEncoder().encode(JSON.stringify({ source: "crm", payload })).length);
    expect(new TextEncoder().encode(big.requestBody as string).length).toBeLessThanOrEqual(LOGGED_BODY_LIMIT);
    expect((big.requestBody as string).endsWith("\uFFFD")).toBe(false);
    await send("POST", "/v0/prospect_logs", { source: "crm", payload: { small: true } });
    const small = await lastEntry();
    expect(small.requestBody).toEqual({ source: "crm", payload: { small: true } });
    expect(small.truncated).toBeUndefined();
  });
});

describe("the exchange check judges answers against the spec's closed lists", () => {
  it("a subscription answered with an event kind outside the closed list (page.deleted) is flagged", async () => {
    const answer = await send("PATCH", SUB_PATH, { active: true });
    expect(answer.status).toBe(200);
    const entry = await lastEntry();
    expect(entry.violations).toEqual([expect.stringMatching(/^body \/events\/0 /)]);
  });
});

describe("--record / --data: a page's version number comes back as recorded", () => {
  it.each([3, 103, 1000])("a page published at version %i loads back at that number, with one version stored", async (number) => {
    const deployment = deploymentMock();
    deployment.state.pages.create({ tenantId: "tenant_a", id: "page_far", pageGroupId: INPUTS.page.pageGroupId, computedName: "v" });
    let version = deployment.state.pageVersions.create({ tenantId: "tenant_a", pageId: "page_far" });
    for (let n = 2; n <= number; n++) version = deployment.state.pageVersions.create({ tenantId: "tenant_a", pageId: "page_far" });
    deployment.state.pageVersions.process(version.id, { computedName: `At ${number}` }, { tenantId: "tenant_a" });
    deployment.state.pageVersions.publish(version.id, { tenantId: "tenant_a" });
    const far = await startTarget(deployment);
    const recording = createRecording();
    const proxy = await startMockServer({ port: 0, apiKeys: [CONTROL_KEY], proxy: { target: far.url, onExchange: recording.see } });
    try {
      const seen = await fetch(`${proxy.url}/v0/page_groups/${INPUTS.page.pageGroupId}/pages/page_far`, { headers: { "x-api-key": KEYS.a } });
      expect(((await seen.json()) as { publishedVersion: { versionNumber: number } }).publishedVersion.versionNumber).toBe(number);
    } finally {
      await proxy.close();
      await far.close();
    }
    const replay = createMockApi({ apiKeys: [KEYS.a], fixtures: (state) => loadFixtures(state, recording.document()) });
    const page = await replay.fetch(`${replay.baseUrl}/v0/page_groups/${INPUTS.page.pageGroupId}/pages/page_far`, {
      headers: { "x-api-key": KEYS.a },
    });
    expect(((await page.json()) as { publishedVersion: { versionNumber: number } }).publishedVersion).toMatchObject({
      versionId: version.id,
      versionNumber: number,
    });
    expect(replay.state.pageVersions.list({ pageId: "page_far" })).toHaveLength(1);
  });
});
