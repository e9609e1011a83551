/**
 * Clients generated from the live `/openapi.json` with each generator's default options,
 * type-checked with `tsc --strict`, then run against the server unchanged: all three operations
 * and two error paths (issue 11.12). openapi-typescript 7 + openapi-fetch, and @hey-api/openapi-ts
 * with its Zod plugin (whose schemas validate the answers too).
 */
import { execFile } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { defaultPlugins, createClient as heyApi } from "@hey-api/openapi-ts";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { ROOT } from "./support/cli-process.js";

const KEY = "key_generated_clients";
const OUT = join(ROOT, "test/server/.generated");
let server: MockServer;
let document: Record<string, unknown>;

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    apiKeys: [KEY],
    fixtures(state) {
      state.pageGroups.create({ id: "group_1" });
      state.pages.create({ id: "page_1", pageGroupId: "group_1", customName: "Pricing" });
      state.webhookSubscriptions.create({ id: "sub_1", url: "https://hooks.example.com/x" });
    },
  });
  document = await (await fetch(`${server.url}/openapi.json`)).json();
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
});
afterAll(() => server.close());

/** Type-checks files with the project's TypeScript in strict mode; returns the diagnostics. */
async function tscStrict(files: string[]): Promise<string> {
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const args = [
    tsc,
    "--ignoreConfig",
    "--strict",
    "--noEmit",
    "--skipLibCheck",
    "--module",
    "nodenext",
    "--moduleResolution",
    "nodenext",
    "--target",
    "es2022",
    "--lib",
    "es2022,dom",
    "--types",
    "node",
    ...files,
  ];
  return promisify(execFile)(process.execPath, args, { cwd: ROOT }).then(
    () => "",
    (error: { stdout: string }) => error.stdout,
  );
}

/** What every generated client must do against the server. */
interface Usage {
  run(baseUrl: string, apiKey: string): Promise<Record<string, unknown>>;
}

const expectOutcomes = (outcomes: Record<string, unknown>) => {
  expect(outcomes).toMatchObject({
    created: { status: 201, prospectLogId: expect.stringMatching(/^prospectlog_/), type: "webhook" },
    page: { status: 200, effectiveName: "Pricing", publishedVersion: { versionId: null, versionNumber: null, publishedAt: null } },
    updated: { status: 200, active: false },
    invalid: { status: 400, code: "invalid_request" },
    missing: { status: 404, code: "not_found" },
  });
};

describe("a client generated from /openapi.json works unchanged", () => {
  it("openapi-typescript 7 (default options) + openapi-fetch: tsc --strict clean, three operations and two errors", async () => {
    const dir = join(OUT, "openapi-typescript");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "schema.d.ts"), astToString(await openapiTS(document as never)));
    writeFileSync(
      join(dir, "usage.ts"),
      `import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

export async function run(baseUrl: string, apiKey: string): Promise<Record<string, unknown>> {
  const client = createClient<paths>({ baseUrl, headers: { "x-api-key": apiKey } });
  const created = await client.POST("/v0/prospect_logs", { body: { source: "crm", payload: { plan: "pro", seats: 3 }, email: "a&b@example.com" } });
  const page = await client.GET("/v0/page_groups/{page_group_id}/pages/{page_id}", { params: { path: { page_group_id: "group_1", page_id: "page_1" } } });
  const updated = await client.PATCH("/v0/webhook_subscriptions/{subscription_id}", { params: { path: { subscription_id: "sub_1" } }, body: { active: false } });
  const invalid = await client.POST("/v0/prospect_logs", { body: { source: "", payload: {} } });
  const missing = await client.GET("/v0/page_groups/{page_group_id}/pages/{page_id}", { params: { path: { page_group_id: "group_1", page_id: "nope" } } });
  const versionId: string | null = page.data ? page.data.publishedVersion.versionId : null;
  return {
    created: { status: created.response.status, ...created.data },
    page: { status: page.response.status, ...page.data, versionId },
    updated: { status: updated.response.status, ...updated.data },
    invalid: { status: invalid.response.status, code: invalid.error?.code },
    missing: { status: missing.response.status, code: missing.error?.code },
  };
}
`,
    );
    expect(await tscStrict([join(dir, "usage.ts")])).toBe("");
    const usage = (await import(join(dir, "usage.ts"))) as Usage;
    expectOutcomes(await usage.run(server.url, KEY));
  }, 120_000);

  it("@hey-api/openapi-ts (default plugins + Zod): tsc --strict clean, three operations and two errors, answers valid by its Zod schemas", async () => {
    const dir = join(OUT, "hey-api");
    const input = join(OUT, "openapi.json");
    writeFileSync(input, JSON.stringify(document));
    await heyApi({ input, output: join(dir, "client"), plugins: [...defaultPlugins, "zod"], logs: { level: "silent" } } as never);
    writeFileSync(
      join(dir, "usage.ts"),
      `import { createProspectLog, getPage, updateWebhookSubscription } from "./client/sdk.gen.js";
import { client } from "./client/client.gen.js";
import { zPage, zProspectLog } from "./client/zod.gen.js";

export async function run(baseUrl: string, apiKey: string): Promise<Record<string, unknown>> {
  client.setConfig({ baseUrl, headers: { "x-api-key": apiKey } });
  const created = await createProspectLog({ body: { source: "crm", payload: { plan: "pro" }, email: "x=y+z@example.org" } });
  const page = await getPage({ path: { page_group_id: "group_1", page_id: "page_1" } });
  const updated = await updateWebhookSubscription({ path: { subscription_id: "sub_1" }, body: { active: false } });
  const invalid = await createProspectLog({ body: { source: "", payload: {} } });
  const missing = await getPage({ path: { page_group_id: "group_1", page_id: "nope" } });
  zProspectLog.parse(created.data);
  zPage.parse(page.data);
  const versionNumber: number | null | undefined = page.data?.publishedVersion.versionNumber;
  return {
    created: { status: created.response?.status, ...created.data },
    page: { status: page.response?.status, ...page.data, versionNumber },
    updated: { status: updated.response?.status, ...updated.data },
    invalid: { status: invalid.response?.status, code: invalid.error?.code },
    missing: { status: missing.response?.status, code: missing.error?.code },
  };
}
`,
    );
    expect(await tscStrict([join(dir, "usage.ts")])).toBe("");
    const usage = (await import(join(dir, "usage.ts"))) as Usage;
    expectOutcomes(await usage.run(server.url, KEY));
  }, 120_000);
});
