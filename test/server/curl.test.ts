/**
 * curl, an HTTP client that is not the SDK, against the server: every operation and every control
 * route, large bodies (curl's `Expect: 100-continue`), and every curl the banner prints, run
 * exactly as printed.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixtures } from "../../mock/control/fixtures.js";
import { DEFAULT_API_KEY, MAX_BODY_BYTES } from "../../mock/index.js";
import { demoFixtures } from "../../mock/server/demo.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import { bannerCurls, type CliProcess, startCli } from "./support/cli-process.js";

const run = promisify(execFile);
const KEY = "key_curl";
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ port: 0, apiKeys: [KEY], fixtures: (state, { url }) => loadFixtures(state, demoFixtures(url)) });
});
afterAll(() => server.close());

/** Runs curl; resolves with the status and the body it printed. */
async function curl(args: string[], input?: string): Promise<{ status: number; body: string }> {
  const child = run("curl", ["-sS", "-w", "\n%{http_code}", "-H", `x-api-key: ${KEY}`, ...args], { maxBuffer: 8 * MAX_BODY_BYTES });
  if (input !== undefined) child.child.stdin!.end(input);
  const { stdout } = await child;
  const cut = stdout.lastIndexOf("\n");
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

const json = ["-H", "content-type: application/json"];

describe("curl against every route", () => {
  it.each([
    [
      "create a prospect log entry",
      ["-X", "POST", "/v0/prospect_logs", ...json, "-d", '{"source":"crm","payload":{"x":1},"email":"c@example.com"}'],
      201,
      /"createdProspect":true/,
    ],
    ["get a page", ["/v0/page_groups/pagegroup_demo/pages/page_demo"], 200, /"effectiveName":"Pricing"/],
    [
      "update a subscription",
      ["-X", "PATCH", "/v0/webhook_subscriptions/webhooksubscription_demo", ...json, "-d", '{"events":["form.submitted"]}'],
      200,
      /"events":\["form.submitted"\]/,
    ],
    ["create a page group", ["-X", "POST", "/__mock/page_groups", ...json, "-d", '{"id":"pagegroup_curl"}'], 201, /"id":"pagegroup_curl"/],
    [
      "create a page",
      ["-X", "POST", "/__mock/pages", ...json, "-d", '{"id":"page_curl","pageGroupId":"pagegroup_demo"}'],
      201,
      /"pageId":"page_curl"/,
    ],
    [
      "create a page version",
      ["-X", "POST", "/__mock/page_versions", ...json, "-d", '{"id":"pageversion_curl","pageId":"page_demo"}'],
      201,
      /"versionNumber":2/,
    ],
    [
      "process it",
      ["-X", "POST", "/__mock/page_versions/pageversion_curl/process", ...json, "-d", '{"computedName":"Plans"}'],
      200,
      /"status":"processed"/,
    ],
    ["publish it", ["-X", "POST", "/__mock/page_versions/pageversion_curl/publish"], 200, /"status":"published"/],
    [
      "create a subscription",
      ["-X", "POST", "/__mock/webhook_subscriptions", ...json, "-d", '{"url":"https://hooks.example.com/curl"}'],
      201,
      /"secret":"whsec_/,
    ],
    ["list prospects", ["/__mock/prospects"], 200, /"email":"c@example.com"/],
    ["list prospect logs", ["/__mock/prospect_logs"], 200, /"payload":\{"x":1\}/],
    ["list recorded requests", ["/__mock/requests"], 200, /"operation":"createProspectLog"/],
    ["inject a fault", ["-X", "POST", "/__mock/faults", ...json, "-d", '{"kind":"status","status":503,"operation":"getPage"}'], 201, /"remaining":1/],
    ["see it answer", ["/v0/page_groups/pagegroup_demo/pages/page_demo"], 503, /"code":"internal_error"/],
    ["list faults", ["/__mock/faults"], 200, /^\{"data":\[\]\}$/],
    ["clear faults", ["-X", "DELETE", "/__mock/faults"], 200, /^\{"data":\[\]\}$/],
    ["read the OpenAPI document", ["/openapi.json"], 200, /"openapi":"3\.1\.0"/],
    ["reset", ["-X", "POST", "/__mock/reset"], 200, /"reset":true/],
  ])("%s", async (_, args, status, body) => {
    const path = args.find((arg) => arg.startsWith("/"))!;
    const answer = await curl(args.map((arg) => (arg === path ? server.url + path : arg)));
    expect(answer.status).toBe(status);
    expect(answer.body).toMatch(body);
  });

  it("a large body within the cap goes through curl's Expect: 100-continue", async () => {
    const body = JSON.stringify({ source: "crm", payload: { blob: "x".repeat(MAX_BODY_BYTES - 100) } });
    const answer = await curl(["-X", "POST", `${server.url}/v0/prospect_logs`, ...json, "--data-binary", "@-"], body);
    expect(answer.status).toBe(201);
  });

  it("a body over the cap is refused with 413 before curl uploads it", async () => {
    const body = JSON.stringify({ source: "crm", payload: { blob: "x".repeat(4 * MAX_BODY_BYTES) } });
    const answer = await curl(["-X", "POST", `${server.url}/v0/prospect_logs`, ...json, "--data-binary", "@-"], body);
    expect(answer.status).toBe(413);
    expect(answer.body).toContain('"code":"payload_too_large"');
  });
});

describe("every curl the banner prints works as printed", () => {
  let cli: CliProcess;
  beforeAll(async () => {
    cli = await startCli(["--port", "0"]);
  });
  afterAll(() => cli.stop());

  // Issue 34.3: the steps used to end on an empty inbox (the third deactivated the subscription).
  it("a command per operation, then a publish, the stored entries and the inbox: run in the order printed and without a pause, each answered 2xx; the last shows (at once, or when run again) the delivery the publish caused, verified", async () => {
    const commands = bannerCurls(cli.stdout());
    const n = OPERATION_TABLE.length;
    expect(commands).toHaveLength(n + 3);
    const outputs: unknown[] = [];
    for (const command of commands) {
      const { stdout, stderr } = await run("sh", ["-c", command]);
      expect(stderr).toBe("");
      outputs.push(JSON.parse(stdout));
    }
    // A delivery is asynchronous (milliseconds on an idle machine): on a loaded one the inbox read
    // can come first, so it is run again, as a person would, until the delivery is there (10 s at most).
    for (const until = Date.now() + 10_000; (outputs[n + 2] as { data: unknown[] }).data.length === 0 && Date.now() < until; ) {
      await new Promise((done) => setTimeout(done, 100));
      outputs[n + 2] = JSON.parse((await run("sh", ["-c", commands[n + 2]!])).stdout);
    }
    // Each operation's answer is its row's result, in the table's order.
    for (const [i, row] of OPERATION_TABLE.entries()) expect(row.result.safeParse(outputs[i]).success, row.name).toBe(true);
    expect(outputs[n]).toMatchObject({ id: "pageversion_demo_1", status: "published" });
    expect(outputs[n + 1]).toMatchObject({ data: [{ source: "crm", payload: { event: "signed_up", plan: "team" } }] });
    expect(outputs[n + 2], "the demo inbox: the delivery the publish caused, verified").toMatchObject({
      data: [{ event: { type: "page.version.published", data: { versionId: "pageversion_demo_1" } }, verification: { verified: true } }],
    });
    await cli.waitFor("GET /__mock/inbox/demo 200");
    const statuses = cli
      .stdout()
      .match(/ (POST|GET|PATCH) \S+ \d{3} /g)!
      .map((line) => line.trim().split(" ")[2]);
    // The commands and the delivery (the inbox read again, if it was, adds its own 200s); each operation answered its success status.
    expect(statuses.slice(0, OPERATION_TABLE.length)).toEqual(OPERATION_TABLE.map((row) => String(row.success)));
    expect(statuses.length).toBeGreaterThanOrEqual(OPERATION_TABLE.length + 4);
    expect(statuses.every((status) => status === "200" || status === "201")).toBe(true);
    expect(cli.stdout()).toContain(`x-api-key: ${DEFAULT_API_KEY}`);
  });
});
