/**
 * The HAR export round-trips through a real consumer: msw's own `@mswjs/source` (`fromTraffic`)
 * turns `api.requests.toHAR()` of the packed package into handlers, and each answers the recorded
 * status, body and `x-request-id` (a dropped connection as a network error; two requests to one
 * URL in their order). `@mswjs/source` 0.5.0 supports msw 2 only (it imports `cleanUrl`, which
 * msw 3 no longer exports), so this runs in a throw-away project with msw 2, as a user would.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MSW_PINS } from "../runtimes/runtimes.ts";
import { installIntoEmptyProject, packTarball } from "./pack.ts";

/** The script run in the project: record some traffic, export it, replay it through fromTraffic's handlers. */
const SCRIPT = `
import { fromTraffic } from "@mswjs/source/traffic";
import { setupServer } from "msw/node";
import { createMockApi } from "prospectkit/mock/core";

const key = "key_alpha_0123456789";
const api = createMockApi({
  apiKeys: [key],
  baseUrl: "https://api.prospectkit.test",
  fixtures(state) {
    state.pageGroups.create({ id: "pagegroup_1" });
    state.pages.create({ id: "page_1", pageGroupId: "pagegroup_1", customName: "Pricing" });
  },
});
const send = (method, path, body) =>
  api.fetch(api.baseUrl + path, {
    method,
    headers: { "x-api-key": key, ...(body && { "content-type": "application/json" }) },
    ...(body && { body: JSON.stringify(body) }),
  }).catch(() => undefined);
await send("POST", "/v0/prospect_logs", { source: "crm", payload: {}, email: "ada@example.com" });
await send("POST", "/v0/prospect_logs", { source: "crm", payload: {}, email: "grace@example.com" });
await send("GET", "/v0/page_groups/pagegroup_1/pages/page_1");
await send("GET", "/v0/page_groups/pagegroup_1/pages/page_2");
await send("GET", "/v0/prospect_logs");
api.faults.networkError({ operation: "updateWebhookSubscription" });
await send("PATCH", "/v0/webhook_subscriptions/ws_1", { active: false });
const har = api.requests.toHAR();

const server = setupServer(...fromTraffic(har));
server.listen({ onUnhandledRequest: "error" });
const replayed = [];
for (const entry of har.log.entries) {
  const recorded = { status: entry.response.status, text: entry.response.content.text ?? null, id: entry.response.headers.find((h) => h.name === "x-request-id")?.value ?? null };
  try {
    const response = await fetch(entry.request.url, { method: entry.request.method, body: entry.request.postData?.text });
    replayed.push({ recorded, replayed: { status: response.status, text: await response.text(), id: response.headers.get("x-request-id") } });
  } catch (error) {
    replayed.push({ recorded, replayed: { error: error.name } });
  }
}
server.close();
console.log(JSON.stringify({ key: JSON.stringify(har).includes(key), replayed }));
`;

describe("the HAR export through @mswjs/source (fromTraffic, msw 2)", () => {
  let project: string;
  beforeAll(() => {
    const tarball = packTarball();
    try {
      project = installIntoEmptyProject(tarball, [MSW_PINS[2], "@mswjs/source@0.5.0"]);
    } finally {
      rmSync(dirname(tarball), { recursive: true, force: true });
    }
    writeFileSync(join(project, "roundtrip.mjs"), SCRIPT);
  }, 180_000);
  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it("each handler answers the recorded status, body and x-request-id; a dropped connection fails as a network error", () => {
    const out = JSON.parse(execFileSync(process.execPath, ["roundtrip.mjs"], { cwd: project, encoding: "utf8" })) as {
      key: boolean;
      replayed: { recorded: { status: number; text: string | null; id: string | null }; replayed: Record<string, unknown> }[];
    };
    expect(out.key).toBe(false);
    expect(out.replayed.map(({ recorded }) => recorded.status)).toEqual([201, 201, 200, 404, 405, 0]);
    for (const { recorded, replayed } of out.replayed) {
      if (recorded.status === 0) expect(replayed).toEqual({ error: "TypeError" });
      else expect(replayed).toEqual(recorded);
    }
    // the two creates to one URL come back in their order, each with its own prospect
    const [first, second] = out.replayed.map(({ replayed }) => JSON.parse(String(replayed.text ?? "null")) as { prospectId?: string });
    expect(first?.prospectId).not.toBe(second?.prospectId);
  });
});
