/**
 * The validating proxy (`startMockServer({ proxy })`, the CLI's `--proxy-to`): it forwards the
 * API's operations with the caller's key, flags exactly the answers that break the contract (in
 * the request log, `GET /__mock/requests` and the request lines), never logs the key, falls back
 * to the mock when asked, and records what it saw as fixtures that load back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadFixtures } from "../../mock/control/fixtures.js";
import { createMockApi, type LoggedRequest } from "../../mock/index.js";
import type { AnsweredRequest } from "../../mock/server/answered.js";
import type { ProxyLogFields } from "../../mock/server/proxy.js";
import { createRecording } from "../../mock/server/recording.js";
import { type MockServer, startMockServer } from "../../mock/server/start.js";
import { deploymentMock, INPUTS, KEYS } from "../verify/support/deployments.js";
import { startTarget, type Target, withBody } from "./support/target.js";

const PAGE_PATH = `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId}`;
const SUB_PATH = `/v0/webhook_subscriptions/${INPUTS.subscription}`;
const CONTROL_KEY = "pk_proxy_control_key_0123";

async function call(server: MockServer, method: string, path: string, json?: unknown, key: string = KEYS.a) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": key, ...(json !== undefined && { "content-type": "application/json" }) },
    ...(json !== undefined && { body: JSON.stringify(json) }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

async function logged(server: MockServer): Promise<(LoggedRequest & ProxyLogFields)[]> {
  const response = await fetch(`${server.url}/__mock/requests`, { headers: { "x-api-key": CONTROL_KEY } });
  return ((await response.json()) as { data: (LoggedRequest & ProxyLogFields)[] }).data;
}

describe("the proxy in front of a deployment that breaks the contract in known ways", () => {
  let target: Target;
  let server: MockServer;
  const lines: AnsweredRequest[] = [];
  beforeAll(async () => {
    target = await startTarget(deploymentMock(), async (request, response) => {
      const path = new URL(request.url).pathname;
      if (request.method === "POST" && response.status === 201) return withBody(response, ({ createdProspect: _dropped, ...body }) => body);
      if (path === PAGE_PATH && response.status === 200) return withBody(response, (body) => ({ ...body, customName: 42 }));
      if (request.method === "PATCH" && response.status === 404)
        return withBody(response, (body) => body, { headers: { "content-type": "application/json" } });
      if (response.status === 401) return withBody(response, (body) => ({ ...body, detail: `Unknown key ${request.headers.get("x-api-key")}` }));
      return response;
    });
    server = await startMockServer({ port: 0, apiKeys: [CONTROL_KEY], proxy: { target: target.url }, onRequest: (line) => lines.push(line) });
  });
  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it.each([
    [
      "a create whose answer lacks createdProspect",
      "POST",
      "/v0/prospect_logs",
      { source: "crm", payload: {} },
      201,
      ["body /createdProspect required"],
    ],
    ["a page whose customName is a number", "GET", PAGE_PATH, undefined, 200, ["body /customName invalid_type"]],
    [
      "a 404 problem sent as application/json",
      "PATCH",
      "/v0/webhook_subscriptions/webhooksubscription_missing",
      {},
      404,
      ["status 404 with content-type application/json, not application/problem+json"],
    ],
    ["an update the target answers as the contract says", "PATCH", SUB_PATH, { active: true }, 200, []],
    [
      "an invalid request the target refuses as it should",
      "POST",
      "/v0/prospect_logs",
      { source: "" },
      400,
      ["request /source too_short", "request /payload required"],
    ],
  ])("%s: flagged with exactly its violations", async (_, method, path, json, status, violations) => {
    const answer = await call(server, method, path, json);
    expect(answer.status).toBe(status);
    const line = lines.at(-1);
    const entry = (await logged(server)).at(-1)!;
    expect({ path: entry.path, status: entry.status, answeredBy: entry.answeredBy }).toEqual({ path, status, answeredBy: "target" });
    expect([...(entry.violations ?? [])].sort()).toEqual([...violations].sort());
    expect(line).toMatchObject({ method, path, status, answeredBy: "target" });
    expect(line!.violations ?? []).toEqual(entry.violations ?? []);
  });

  it("the caller's key reaches the target; the answer keeps the target's x-request-id", async () => {
    const before = target.keys.length;
    const answer = await call(server, "GET", PAGE_PATH);
    expect(target.keys.slice(before)).toEqual([KEYS.a]);
    expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
    expect(answer.body.pageId).toBe(INPUTS.page.pageId);
  });

  it("a key the target echoes is flagged and never logged: the log shows [redacted]", async () => {
    const answer = await call(server, "GET", PAGE_PATH, undefined, "pk_unknown_to_target_0123456");
    expect(answer.body.detail).toContain("pk_unknown_to_target_0123456"); // the caller gets the answer as sent
    const entry = (await logged(server)).at(-1)!;
    expect(entry.violations).toContain("the answer carries the API key sent");
    expect(JSON.stringify(await logged(server))).not.toContain("pk_unknown_to_target_0123456");
    expect(JSON.stringify(entry.responseBody)).toContain("[redacted]");
  });
});

describe("when the target does not answer", () => {
  let server: MockServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const closedPort = async () => {
    const target = await startTarget(deploymentMock());
    await target.close();
    return target.url;
  };

  it("without --fallback: 502 target_unreachable, a problem naming the target", async () => {
    const url = await closedPort();
    server = await startMockServer({ port: 0, apiKeys: [CONTROL_KEY], proxy: { target: url } });
    const answer = await call(server, "POST", "/v0/prospect_logs", { source: "crm", payload: {} });
    expect(answer.status).toBe(502);
    expect(answer.body).toMatchObject({ code: "target_unreachable", status: 502 });
    expect(answer.body.detail).toContain(url);
  });

  it("with --fallback: the mock answers a refused connection, marked answered by the mock", async () => {
    const lines: AnsweredRequest[] = [];
    server = await startMockServer({
      port: 0,
      apiKeys: [KEYS.a],
      proxy: { target: await closedPort(), fallback: true },
      onRequest: (line) => lines.push(line),
    });
    const answer = await call(server, "POST", "/v0/prospect_logs", { source: "crm", payload: {} });
    expect(answer.status).toBe(201);
    const entries = server.api.requests.list();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ operation: "createProspectLog", status: 201, answeredBy: "mock" });
    expect(lines.at(-1)).toMatchObject({ status: 201, answeredBy: "mock" });
  });

  it("with --fallback: a route the target does not have (a 404 that is not a problem) is answered by the mock", async () => {
    const target = await startTarget(deploymentMock(), (request, response) =>
      new URL(request.url).pathname.startsWith("/v0/page_groups")
        ? new Response("Cannot GET", { status: 404, headers: { "content-type": "text/plain" } })
        : response,
    );
    server = await startMockServer({ port: 0, apiKeys: [KEYS.a], proxy: { target: target.url, fallback: true } });
    server.api.state.pageGroups.create({ id: "pagegroup_m" });
    server.api.state.pages.create({ id: "page_m", pageGroupId: "pagegroup_m", computedName: "From the mock" });
    const page = await call(server, "GET", "/v0/page_groups/pagegroup_m/pages/page_m");
    expect(page).toMatchObject({ status: 200, body: { effectiveName: "From the mock" } });
    // A 404 problem (a missing resource) is the target's answer, not a missing route.
    const missing = await call(server, "PATCH", "/v0/webhook_subscriptions/webhooksubscription_missing", {});
    expect(missing.status).toBe(404);
    expect((server.api.requests.list() as (LoggedRequest & ProxyLogFields)[]).map((entry) => entry.answeredBy)).toEqual(["mock", "target"]);
    await target.close();
  });
});

describe("--record: what the proxy saw, as fixtures the mock loads", () => {
  it("getPage from a mock loaded with the recording answers what the target answered (names, IDs, published version)", async () => {
    const deployment = deploymentMock();
    // A page whose published version is the third: the recording keeps its number.
    deployment.state.pages.create({
      tenantId: "tenant_a",
      id: "page_three",
      pageGroupId: INPUTS.page.pageGroupId,
      customName: null,
      computedName: "v",
    });
    for (const n of [1, 2, 3]) {
      const version = deployment.state.pageVersions.create({ tenantId: "tenant_a", pageId: "page_three" });
      deployment.state.pageVersions.process(version.id, { computedName: `Three v${n}` });
      if (n === 3) deployment.state.pageVersions.publish(version.id);
    }
    const target = await startTarget(deployment);
    const recording = createRecording();
    const server = await startMockServer({ port: 0, apiKeys: [CONTROL_KEY], proxy: { target: target.url, onExchange: recording.see } });
    const seen = [
      (await call(server, "GET", PAGE_PATH)).body,
      (await call(server, "GET", `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/page_three`)).body,
    ];
    const subscription = (await call(server, "PATCH", SUB_PATH, { active: false })).body;
    const log = (await call(server, "POST", "/v0/prospect_logs", { source: "crm", payload: {}, email: "ada@example.com", name: "Ada" })).body;
    await server.close();
    await target.close();

    const document = recording.document();
    expect(JSON.stringify(document)).not.toContain(KEYS.a);
    const replay = createMockApi({ apiKeys: [KEYS.a], fixtures: (state) => loadFixtures(state, document) });
    const comparable = ({ createdAt: _c, tenantId: _t, publishedVersion, ...page }: any) => ({
      ...page,
      versionId: publishedVersion.versionId,
      versionNumber: publishedVersion.versionNumber,
    });
    for (const page of seen) {
      const again = await replay.fetch(`${replay.baseUrl}/v0/page_groups/${page.pageGroupId}/pages/${page.pageId}`, {
        headers: { "x-api-key": KEYS.a },
      });
      expect(comparable(await again.json())).toEqual(comparable(page));
    }
    const { createdAt: _c, updatedAt: _u, ...stored } = subscription;
    expect(replay.state.webhookSubscriptions.get(INPUTS.subscription)).toMatchObject(stored);
    expect(replay.state.prospects.get(log.prospectId)).toMatchObject({ email: "ada@example.com", name: "Ada" });
  });
});
