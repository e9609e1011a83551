/**
 * The request matchers under Jest, on the packed package: `prospectkit/mock/vitest` serves Jest's
 * `expect.extend` as it serves Vitest's (one module, no runner imported). A throw-away project
 * installs the tarball and Jest 30, and runs a Jest file with rows of test/testing/matchers.test.ts:
 * each passes or fails as there, and a failure names the nearest request, the fields it differs
 * in and the routes close to the operation, without the key.
 */
import { spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installIntoEmptyProject, packTarball } from "./pack.ts";

const JEST_FILE = `
const { createMockApi } = require("prospectkit/mock/core");
const { matchers } = require("prospectkit/mock/vitest");
expect.extend(matchers);

const KEY = "key_alpha_0123456789";
const api = createMockApi({ apiKeys: { [KEY]: "tenant_a", key_bravo_0123456789: "tenant_b" } });
const send = (key, method, path, body) =>
  api.fetch(api.baseUrl + path, { method, headers: { "x-api-key": key, "content-type": "application/json" }, ...(body && { body: JSON.stringify(body) }) });
const ada = { source: "crm", payload: {}, email: "ada@example.com" };
const messageOf = (check) => { try { check(); return null; } catch (error) { return error.message.replace(/\\u001b\\[[0-9;]*m/g, ""); } };
beforeEach(() => api.reset());

test("a matching request passes, with asymmetric matchers", async () => {
  await send(KEY, "POST", "/v0/prospect_logs", ada);
  expect(api).toHaveReceived("createProspectLog", { body: expect.objectContaining({ email: expect.stringMatching(/@example/) }), status: 201 });
  expect(api).toHaveReceivedTimes("createProspectLog", 1);
  expect(api).toHaveReceivedLast("createProspectLog", { body: ada });
  expect(api).toHaveReceivedNothingElse();
  expect(api).toHaveFiredAllFaults();
});

test("a body that differs in one field: the nearest request and the field", async () => {
  await send(KEY, "POST", "/v0/prospect_logs", ada);
  const message = messageOf(() => expect(api).toHaveReceived("createProspectLog", { body: { ...ada, email: "bob@example.com" } }));
  expect(message).toContain("The nearest createProspectLog request (1st of 1): POST /v0/prospect_logs → 201; differs in body.email");
  expect(message).toContain('-     "email": "bob@example.com",');
  expect(message).toContain('+     "email": "ada@example.com",');
});

test("a path one segment away and the wrong method are named", async () => {
  await send(KEY, "POST", "/v0/prospect_log", ada);
  await send(KEY, "PUT", "/v0/prospect_logs", ada);
  const message = messageOf(() => expect(api).toHaveReceived("createProspectLog"));
  expect(message).toContain('POST /v0/prospect_log → 404: path segment 2 was "prospect_log", not "prospect_logs"');
  expect(message).toContain("PUT /v0/prospect_logs → 405: the method was PUT, not POST");
});

test("the right request from another tenant does not count on a tenant", async () => {
  await send("key_bravo_0123456789", "POST", "/v0/prospect_logs", ada);
  expect(messageOf(() => expect(api.tenant("tenant_a")).toHaveReceived("createProspectLog"))).toContain("It received no createProspectLog request (0 requests in all).");
  expect(api.tenant("tenant_b")).toHaveReceived("createProspectLog");
});

test(".not and an unfired fault fail with their lists, never the key", async () => {
  await send(KEY, "POST", "/v0/prospect_logs", { ...ada, source: KEY });
  api.faults.status(503, { operation: "createProspectLog", match: { source: "web" } });
  await send(KEY, "POST", "/v0/prospect_logs", ada);
  const messages = [
    messageOf(() => expect(api).not.toHaveReceived("createProspectLog")),
    messageOf(() => expect(api).toHaveFiredAllFaults()),
    messageOf(() => expect(api).toHaveReceived("createProspectLog", { body: { source: "x" } })),
  ];
  expect(messages[1]).toContain('near miss: source was "crm", not "web"');
  for (const message of messages) {
    expect(message).not.toBeNull();
    expect(message).not.toContain(KEY);
  }
});
`;

describe("the request matchers under Jest (the packed package)", () => {
  let project: string;
  beforeAll(() => {
    const tarball = packTarball();
    try {
      project = installIntoEmptyProject(tarball, ["jest@30.5.2"]);
    } finally {
      rmSync(dirname(tarball), { recursive: true, force: true });
    }
    writeFileSync(join(project, "matchers.test.js"), JEST_FILE);
  }, 300_000);
  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it("every row passes under Jest", () => {
    const jest = join(project, "node_modules/jest/bin/jest.js");
    const run = spawnSync(process.execPath, [jest, "--ci", "--colors=false", "matchers.test.js"], { cwd: project, encoding: "utf8" });
    expect(run.stderr).toMatch(/Tests: +5 passed, 5 total/);
    expect(run.status).toBe(0);
  }, 120_000);
});
