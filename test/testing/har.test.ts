/**
 * The request log as HAR 1.2: `api.requests.toHAR()` and `GET /__mock/requests.har` validate
 * against the HAR 1.2 schema (har-schema), keep to the caller's tenant, and hold no key. The
 * round trip through msw's `@mswjs/source` is test/package/har-roundtrip.test.ts (it needs msw 2).
 */
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import harSchemas from "har-schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMockApi, type MockApi } from "../../mock/index.js";
import type { Har } from "../../mock/observe/har.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";

const KEY = "key_alpha_0123456789";
const OTHER = "key_bravo_0123456789";
const KEYS = { [KEY]: "tenant_a", [OTHER]: "tenant_b" };
const BASE = "https://api.prospectkit.test";

/** The HAR 1.2 schema of har-schema (draft-06, one file per object), compiled with Ajv. */
function harValidator() {
  // har-schema is draft-06, which Ajv 8 reads as draft-07 does (its own meta-schema is not loaded, so not checked against it).
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  for (const schema of Object.values(harSchemas as Record<string, object>)) ajv.addSchema(schema);
  return ajv.getSchema("har.json#")!;
}

/** Sends the exchanges the archives are made of: a create, a read, a 404, a 400 with the key in the body, a fault's 503. */
async function traffic(send: (key: string, method: string, path: string, body?: unknown) => Promise<unknown>, arm: () => void) {
  await send(KEY, "POST", "/v0/prospect_logs", { source: "crm", payload: { plan: "pro" }, email: "ada@example.com" });
  await send(KEY, "GET", "/v0/page_groups/pagegroup_1/pages/page_1?expand=versions");
  await send(KEY, "GET", "/v0/page_groups/pagegroup_1/page/page_1");
  await send(KEY, "POST", "/v0/prospect_logs", { source: KEY, payload: 1 });
  arm();
  await send(KEY, "PATCH", "/v0/webhook_subscriptions/ws_1", { active: false });
  await send(OTHER, "POST", "/v0/prospect_logs", { source: "tenant_b_only", payload: {} });
}

const requestInit = (key: string, method: string, body?: unknown): RequestInit => ({
  method,
  headers: {
    "x-api-key": key,
    authorization: `Bearer ${key}`,
    cookie: `session=${key}`,
    "x-trace": "t1",
    ...(body !== undefined && { "content-type": "application/json" }),
  },
  ...(body !== undefined && { body: JSON.stringify(body) }),
});

const fixtures: Parameters<typeof createMockApi>[0] = {
  apiKeys: KEYS,
  fixtures(state) {
    state.pageGroups.create({ id: "pagegroup_1", tenantId: "tenant_a" });
    state.pages.create({ id: "page_1", pageGroupId: "pagegroup_1", tenantId: "tenant_a", customName: "Pricing" });
  },
};

describe("api.requests.toHAR()", () => {
  let api: MockApi;
  let har: Har;
  beforeAll(async () => {
    api = createMockApi({ ...fixtures, baseUrl: BASE });
    await traffic(
      (key, method, path, body) => api.fetch(`${BASE}${path}`, requestInit(key, method, body)),
      () => api.faults.status(503, { operation: "updateWebhookSubscription" }),
    );
    har = api.requests.toHAR();
  });

  it("validates against the HAR 1.2 schema", () => {
    const validate = harValidator();
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    // the schema is no rubber stamp: an entry without its response fails it
    const broken = structuredClone(har) as unknown as { log: { entries: Record<string, unknown>[] } };
    delete broken.log.entries[0]!.response;
    expect(validate(broken)).toBe(false);
  });

  it("holds every request of every tenant, in order, with the request's own query and headers but no credential", () => {
    expect(har.log.entries.map((entry) => `${entry.request.method} ${entry.request.url} ${entry.response.status}`)).toEqual([
      `POST ${BASE}/v0/prospect_logs 201`,
      `GET ${BASE}/v0/page_groups/pagegroup_1/pages/page_1?expand=versions 200`,
      `GET ${BASE}/v0/page_groups/pagegroup_1/page/page_1 404`,
      `POST ${BASE}/v0/prospect_logs 400`,
      `PATCH ${BASE}/v0/webhook_subscriptions/ws_1 503`,
      `POST ${BASE}/v0/prospect_logs 201`,
    ]);
    const [created, read] = har.log.entries;
    expect(read!.request.queryString).toEqual([{ name: "expand", value: "versions" }]);
    expect(created!.request.headers).toContainEqual({ name: "x-trace", value: "t1" });
    expect(created!.request.headers.map((header) => header.name)).not.toContain("authorization");
    expect(JSON.parse(created!.request.postData!.text)).toEqual({ source: "crm", payload: { plan: "pro" }, email: "ada@example.com" });
    expect(har.log.entries[2]!.comment).toBe("no operation; nearest: GET /v0/page_groups/{page_group_id}/pages/{page_id}");
  });

  it("holds no key: not a header, a cookie, nor a body that carried one", () => {
    const text = JSON.stringify(har);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(OTHER);
    expect(har.log.entries[3]!.request.postData!.text).toBe("[redacted]");
  });
});

describe("GET /__mock/requests.har on the server", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ ...fixtures, port: 0 });
    await traffic(
      (key, method, path, body) => fetch(`${server.url}${path}`, requestInit(key, method, body)).then((response) => response.arrayBuffer()),
      () => server.api.tenant("tenant_a").faults.status(503, { operation: "updateWebhookSubscription" }),
    );
  });
  afterAll(() => server.close());

  const archive = async (key: string) => {
    const response = await fetch(`${server.url}/__mock/requests.har`, { headers: { "x-api-key": key } });
    expect(response.status).toBe(200);
    return (await response.json()) as Har;
  };

  it("validates against the HAR 1.2 schema, each tenant's own requests only, no key", async () => {
    const validate = harValidator();
    const [a, b] = [await archive(KEY), await archive(OTHER)];
    for (const har of [a, b]) expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
    expect(a.log.entries.map((entry) => entry.response.status)).toEqual([201, 200, 404, 400, 503]);
    expect(b.log.entries.map((entry) => entry.request.postData?.text)).toEqual(['{"source":"tenant_b_only","payload":{}}']);
    expect(JSON.stringify(a)).not.toContain("tenant_b_only");
    for (const har of [a, b]) {
      expect(JSON.stringify(har)).not.toContain(KEY);
      expect(JSON.stringify(har)).not.toContain(OTHER);
    }
    expect(a.log.entries[0]!.request.url).toBe(`${server.url}/v0/prospect_logs`);
  });

  it("answers 401 without a key", async () => {
    expect((await fetch(`${server.url}/__mock/requests.har`)).status).toBe(401);
  });
});
