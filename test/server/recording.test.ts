/**
 * Issue 40, item 4: what `--record` writes always loads with `--data`. A value the validating
 * proxy flagged is left out, and an exchange that needs a flagged value is skipped; each is a line
 * of the recording's report. Each row: a target breaking one field, the proxy recording it, then
 * the document checked with the fixture schema `--data` uses and loaded into a fresh mock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixtures, parseFixtureDocument } from "../../mock/control/fixtures.js";
import { createMockApi } from "../../mock/index.js";
import { createRecording, type Recording } from "../../mock/server/recording.js";
import { type MockServer, startMockServer } from "../../mock/server/start.js";
import { deploymentMock, INPUTS, KEYS } from "../verify/support/deployments.js";
import { startTarget, type Target, withBody } from "./support/target.js";

const PAGE_PATH = `/v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId}`;
const SUB_PATH = `/v0/webhook_subscriptions/${INPUTS.subscription}`;

let change: (body: any) => unknown = (body) => body;
let recording: Recording;
let target: Target;
let server: MockServer;
beforeAll(async () => {
  target = await startTarget(deploymentMock(), (_, response) => (response.status < 300 ? withBody(response, change) : response));
  server = await startMockServer({
    port: 0,
    apiKeys: ["pk_recording_control_key_01"],
    proxy: { target: target.url, onExchange: (exchange) => recording.see(exchange) },
  });
});
afterAll(async () => {
  await server?.close();
  await target?.close();
});

const send = async (method: string, path: string, json?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": KEYS.a, ...(json !== undefined && { "content-type": "application/json" }) },
    ...(json !== undefined && { body: JSON.stringify(json) }),
  });
  return response.json();
};

describe("--record leaves out what the proxy flagged, and what it writes loads with --data", () => {
  it.each<[string, (body: any) => unknown, "page" | "subscription", RegExp[], (replay: ReturnType<typeof createMockApi>) => void]>([
    [
      "a page whose customName is 42: the page is kept without it",
      (body) => ({ ...body, customName: 42 }),
      "page",
      [/^left out the answer's \/customName of getPage page_v: the proxy flagged it \(body \/customName invalid_type\)$/],
      (replay) => expect(replay.state.pages.get(INPUTS.page.pageId)).toMatchObject({ customName: null, computedName: "AI pricing" }),
    ],
    [
      "a page whose supplementaryContext is an object: the page is kept without it",
      (body) => ({ ...body, supplementaryContext: { not: "a string" } }),
      "page",
      [/^left out the answer's \/supplementaryContext of getPage page_v/],
      (replay) => expect(replay.state.pages.get(INPUTS.page.pageId)).toMatchObject({ supplementaryContext: null, customName: "Pricing" }),
    ],
    [
      "a page whose pageGroupId is a number: skipped (a page needs its group)",
      (body) => ({ ...body, pageGroupId: 7 }),
      "page",
      [/^skipped a getPage answer: it needs what the proxy flagged \(body \/pageGroupId invalid_type\)$/],
      (replay) => expect(replay.state.pages.list()).toEqual([]),
    ],
    [
      "a page answered as a list: skipped whole",
      () => [1, 2],
      "page",
      [/^skipped a getPage answer: the proxy flagged it whole \(body \/ invalid_type\)$/],
      (replay) => expect(replay.state.pages.list()).toEqual([]),
    ],
    [
      "a subscription with an event kind outside the closed list: skipped (without events it would load as every kind)",
      (body) => ({ ...body, events: ["page.deleted"] }),
      "subscription",
      [/^skipped a updateWebhookSubscription answer: it needs what the proxy flagged \(body \/events\/0 /],
      (replay) => expect(replay.state.webhookSubscriptions.list()).toEqual([]),
    ],
    [
      "a subscription whose url is not a URL: skipped",
      (body) => ({ ...body, url: "not a url" }),
      "subscription",
      [/^skipped a updateWebhookSubscription answer: it needs what the proxy flagged \(body \/url /],
      (replay) => expect(replay.state.webhookSubscriptions.list()).toEqual([]),
    ],
  ])("%s", async (_, breaking, what, report, check) => {
    recording = createRecording();
    change = breaking;
    await (what === "page" ? send("GET", PAGE_PATH) : send("PATCH", SUB_PATH, { active: true }));
    expect(recording.notes()).toEqual(report.map((line) => expect.stringMatching(line)));
    const document = recording.document();
    expect(parseFixtureDocument(JSON.parse(JSON.stringify(document)))).toMatchObject({ ok: true });
    const replay = createMockApi({ apiKeys: [KEYS.a], fixtures: (state) => loadFixtures(state, document) });
    check(replay);
  });

  it("an answer the proxy did not flag is recorded whole, with nothing in the report", async () => {
    recording = createRecording();
    change = (body) => body;
    await send("GET", PAGE_PATH);
    await send("PATCH", SUB_PATH, { active: true });
    expect(recording.notes()).toEqual([]);
    expect(recording.document()).toMatchObject({
      pages: [{ id: INPUTS.page.pageId, customName: "Pricing" }],
      webhookSubscriptions: [{ id: INPUTS.subscription }],
    });
  });
});
