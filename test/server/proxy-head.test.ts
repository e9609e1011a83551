/**
 * Issue 40, item 5: the validating proxy judges a `HEAD` answer by its status and headers, never
 * by its body (a `HEAD` answer has none): a correct answer is not flagged, while a wrong status or
 * header still is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoggedRequest } from "../../mock/index.js";
import type { ProxyLogFields } from "../../mock/server/proxy.js";
import { type MockServer, startMockServer } from "../../mock/server/start.js";
import { deploymentMock, INPUTS, KEYS } from "../verify/support/deployments.js";
import { startTarget, type Target } from "./support/target.js";

const PAGE_PATH = `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId}`;
const CONTROL_KEY = "pk_proxy_head_control_key_01";

let target: Target;
let server: MockServer;
beforeAll(async () => {
  // The target breaks the headers of the pages whose IDs say so; every other answer is the mock's own.
  target = await startTarget(deploymentMock(), (request, response) => {
    const path = new URL(request.url).pathname;
    const headers = new Headers(response.headers);
    if (path.endsWith("/page_text")) headers.set("content-type", "text/plain");
    else if (path.endsWith("/page_no_id")) headers.delete("x-request-id");
    else return response;
    return new Response(response.body, { status: path.endsWith("/page_text") ? 200 : response.status, headers });
  });
  server = await startMockServer({ port: 0, apiKeys: [CONTROL_KEY], proxy: { target: target.url } });
});
afterAll(async () => {
  await server?.close();
  await target?.close();
});

const lastEntry = async (): Promise<LoggedRequest & ProxyLogFields> =>
  (
    (await (await fetch(`${server.url}/__mock/requests`, { headers: { "x-api-key": CONTROL_KEY } })).json()) as {
      data: (LoggedRequest & ProxyLogFields)[];
    }
  ).data.at(-1)!;

describe("the proxy checks a HEAD answer's status and headers, not its body", () => {
  it.each<[string, string, number, string[]]>([
    ["a page the target has: 200 with GET's headers and no body", PAGE_PATH, 200, []],
    [
      "a page the target does not have: 404 with a problem's headers and no body",
      `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/page_none`,
      404,
      [],
    ],
    ["an answer without x-request-id: still flagged", `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/page_no_id`, 404, ["no x-request-id header"]],
    [
      "a 200 sent as text/plain: still flagged",
      `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/page_text`,
      200,
      ["status 200 with content-type text/plain, not JSON"],
    ],
  ])("%s", async (_, path, status, violations) => {
    const answer = await fetch(`${server.url}${path}`, { method: "HEAD", headers: { "x-api-key": KEYS.a } });
    expect(answer.status).toBe(status);
    expect(await answer.text()).toBe("");
    const entry = await lastEntry();
    expect({ method: entry.method, path: entry.path, status: entry.status, answeredBy: entry.answeredBy }).toEqual({
      method: "HEAD",
      path,
      status,
      answeredBy: "target",
    });
    expect(entry.violations).toEqual(violations);
  });

  it("the same page read with GET is still judged by its body (the target's answer keeps the contract)", async () => {
    await fetch(`${server.url}${PAGE_PATH}`, { headers: { "x-api-key": KEYS.a } });
    expect((await lastEntry()).violations).toEqual([]);
  });
});
