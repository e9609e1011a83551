/**
 * `--record FILE.har` (mock/server/har-recording.ts, what the CLI passes the proxy): the forwarded
 * exchanges as a HAR 1.2 file with the target's URLs, valid against the HAR schema, with no key
 * (neither the header, a query value nor a body that carried it), and only what the target answered.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import harSchemas from "har-schema";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Har } from "../../mock/observe/har.js";
import { createHarRecording } from "../../mock/server/har-recording.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";

const KEY = "key_target_0123456789";
let target: MockServer;
let proxy: MockServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "prospectkit-har-"));
  target = await startMockServer({ port: 0, apiKeys: [KEY] });
  const recording = createHarRecording(join(dir, "seen.har"), target.url);
  proxy = await startMockServer({ port: 0, apiKeys: ["control_key_0123"], proxy: { target: target.url, onExchange: recording.see } });
  recording.attach(proxy.api);
});
afterAll(async () => {
  await proxy?.close();
  await target?.close();
  rmSync(dir, { recursive: true, force: true });
});

it("writes the forwarded exchanges as HAR 1.2 with the target's URLs and no key", async () => {
  const send = (method: string, path: string, body?: unknown) =>
    fetch(`${proxy.url}${path}`, {
      method,
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    }).then((response) => response.arrayBuffer());
  await send("POST", "/v0/prospect_logs", { source: "crm", payload: {} });
  await send("POST", "/v0/prospect_logs", { source: KEY, payload: {} });
  await send("GET", `/v0/page_groups/pg_1/pages/p_1?token=${KEY}`);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const text = readFileSync(join(dir, "seen.har"), "utf8");
  const har = JSON.parse(text) as Har;
  // har-schema is draft-06, which Ajv 8 reads as draft-07 does (its own meta-schema is not loaded, so not checked against it).
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  for (const schema of Object.values(harSchemas)) ajv.addSchema(schema);
  const validate = ajv.getSchema("har.json#")!;
  expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
  expect(har.log.entries.map((entry) => `${entry.request.method} ${entry.request.url} ${entry.response.status}`)).toEqual([
    `POST ${target.url}/v0/prospect_logs 201`,
    `POST ${target.url}/v0/prospect_logs 201`,
    `GET ${target.url}/v0/page_groups/pg_1/pages/p_1?token=%5Bredacted%5D 404`,
  ]);
  expect(text).not.toContain(KEY);
});
