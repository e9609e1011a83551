/**
 * The OpenAPI document the server serves: it lints clean with an independent linter (redocly,
 * recommended-strict), and an independent JSON Schema validator (ajv) built from it agrees with
 * the live server: every answer has a documented status, media type and a body valid against the
 * documented schema, and a request body is accepted exactly when the document says it is valid.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { fillPath } from "../../src/operation-row.js";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import { ROOT } from "./support/cli-process.js";

const KEY = "key_openapi";
let server: MockServer;
let document: any;
let control: any;
let ajv: Ajv2020;

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    apiKeys: [KEY],
    fixtures(state, { url }) {
      state.pageGroups.create({ id: "group_1" });
      state.pages.create({ id: "page_1", pageGroupId: "group_1" });
      state.pageVersions.create({ id: "version_1", pageId: "page_1" });
      state.webhookSubscriptions.create({ id: "sub_1", url: `${url}/__mock/inbox/openapi` });
    },
  });
  document = await (await fetch(`${server.url}/openapi.json`)).json();
  control = await (await fetch(`${server.url}/__mock/openapi.json`)).json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema(document, "openapi.json");
  ajv.addSchema(control, "control.json");
});
afterAll(() => server.close());

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** The document a path belongs to: the control API's own, or the API's. */
const documentOf = (path: string) => (path.startsWith("/__mock") ? { doc: control, id: "control.json" } : { doc: document, id: "openapi.json" });

/** Follows a `$ref` inside a document. */
function resolve(node: any, doc: any = document): any {
  if (node?.$ref === undefined) return node;
  return (node.$ref as string)
    .slice(2)
    .split("/")
    .reduce((at: any, part) => at[part.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
}

/** Validates a value against the schema at a JSON pointer of a document. */
function validate(at: string, value: unknown, id = "openapi.json"): string[] {
  const check = ajv.getSchema(`${id}#/${at}`);
  if (check === undefined) throw new TypeError(`no schema at ${at}`);
  return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

describe("the document", () => {
  it("/openapi.json describes the /v0 API only; the control API has its own document at /__mock/openapi.json", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.securitySchemes.ApiKey).toEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }));
    expect(document.servers[0].url).toBe(server.url);
    expect(document.paths["/v0/prospect_logs"].post.tags).toEqual(["API"]);
    expect(Object.keys(document.paths).every((path) => path.startsWith("/v0/"))).toBe(true);
    expect(control.openapi).toBe("3.1.0");
    expect(control.paths["/__mock/reset"].post.tags).toEqual(["Control API"]);
    expect(Object.keys(control.paths).every((path) => path === "/__mock" || path.startsWith("/__mock/"))).toBe(true);
    expect(document.paths["/v0/prospect_logs"].post.responses["422"]).toEqual({ $ref: "#/components/responses/IdempotencyKeyReused" });
  });

  it("what generated clients need: payload a free record, type optional in a request, publishedVersion's fields required, url and email as patterns", () => {
    const { schemas } = document.components;
    expect(schemas.ProspectLogCreate.properties.payload).toEqual({ type: "object", additionalProperties: true });
    expect(schemas.ProspectLogCreate.required).not.toContain("type");
    expect(schemas.ProspectLogCreate.properties.type.default).toBeUndefined();
    expect(schemas.Page.properties.publishedVersion.required).toEqual(["versionId", "versionNumber", "publishedAt"]);
    expect(schemas.WebhookSubscriptionUpdate.properties.url).toMatchObject({ maxLength: 2048, pattern: expect.stringMatching(/^\^\[Hh\]/) });
    expect(schemas.WebhookSubscriptionUpdate.properties.url.format).toBeUndefined();
    expect(schemas.ProspectLogCreate.properties.email.format).toBeUndefined();
    const url = new RegExp(schemas.WebhookSubscriptionUpdate.properties.url.pattern, "u");
    for (const bad of ["HTTP:foo", "http:foo", "http://a/%zz", "https://x/a\\b"]) expect(url.test(bad)).toBe(false);
    const email = new RegExp(schemas.ProspectLogCreate.properties.email.pattern, "u");
    for (const good of ["a&b@example.com", "x=y+z@example.org", "user@example.xn--p1ai"]) expect(email.test(good)).toBe(true);
    expect(email.test("a@x-.co")).toBe(false);
  });

  // Issue 26.7: what Spectral's spectral:oas flags beyond redocly's recommended set (info-contact is also on in redocly.yaml).
  it("the API's document: every operation has a description, and info names a contact", () => {
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string; description?: string }>),
    );
    expect(operations.filter((operation) => !operation.description?.trim()).map((operation) => operation.operationId)).toEqual([]);
    expect(document.info.contact).toEqual({ name: "prospectkit", url: expect.stringMatching(/^https:\/\//) });
  });

  it.each([["openapi.json"], ["control.json"]])(
    "%s lints clean with redocly (recommended-strict: no error, no warning)",
    async (name) => {
      const file = join(mkdtempSync(join(tmpdir(), "pk-openapi-")), "openapi.json");
      writeFileSync(file, JSON.stringify(name === "openapi.json" ? document : control));
      const run = promisify(execFile);
      const cli = join(ROOT, "node_modules/@redocly/cli/bin/cli.js");
      const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
      const result = await run(process.execPath, [cli, "lint", file, "--config", join(ROOT, "redocly.yaml"), "--format", "json"], {
        env,
        cwd: ROOT,
      }).catch((error: { stdout: string; stderr: string }) => error);
      const report = JSON.parse(result.stdout) as { totals: { errors: number; warnings: number }; problems: { message: string }[] };
      expect(report.problems.map((p) => p.message)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    },
    60_000,
  );
});

type Case = readonly [method: string, path: string, template: string, body?: unknown, key?: string | null];

/** Live calls covering every documented operation, with successes and the errors they document. */
const CASES: readonly Case[] = [
  ["POST", "/v0/prospect_logs", "/v0/prospect_logs", { source: "crm", payload: { a: 1 }, email: "x@example.com", idempotencyKey: "k1" }],
  ["POST", "/v0/prospect_logs", "/v0/prospect_logs", { source: "crm", payload: { a: 1 }, email: "x@example.com", idempotencyKey: "k1" }],
  ["POST", "/v0/prospect_logs", "/v0/prospect_logs", { source: "crm", payload: { b: 2 }, idempotencyKey: "k1" }],
  ["POST", "/v0/prospect_logs", "/v0/prospect_logs", { source: "", payload: [], emial: "typo" }],
  ["POST", "/v0/prospect_logs", "/v0/prospect_logs", { source: "crm", payload: {} }, null],
  ["GET", "/v0/page_groups/group_1/pages/page_1", "/v0/page_groups/{page_group_id}/pages/{page_id}"],
  ["GET", "/v0/page_groups/group_1/pages/page_404", "/v0/page_groups/{page_group_id}/pages/{page_id}"],
  ["GET", "/v0/page_groups/group_1/pages/page_1", "/v0/page_groups/{page_group_id}/pages/{page_id}", undefined, "wrong"],
  ["PATCH", "/v0/webhook_subscriptions/sub_1", "/v0/webhook_subscriptions/{subscription_id}", { events: ["form.submitted"], active: false }],
  ["PATCH", "/v0/webhook_subscriptions/sub_1", "/v0/webhook_subscriptions/{subscription_id}", { events: [] }],
  ["PATCH", "/v0/webhook_subscriptions/sub_404", "/v0/webhook_subscriptions/{subscription_id}", {}],
  ["POST", "/__mock/page_groups", "/__mock/page_groups", { id: "group_2" }],
  ["POST", "/__mock/pages", "/__mock/pages", { pageGroupId: "group_2", customName: "Docs" }],
  ["POST", "/__mock/pages", "/__mock/pages", { pageGroupId: "group_404" }],
  ["POST", "/__mock/page_versions", "/__mock/page_versions", { pageId: "page_1" }],
  ["POST", "/__mock/page_versions/version_1/process", "/__mock/page_versions/{versionId}/process", { computedName: "Home" }],
  ["POST", "/__mock/page_versions/version_1/publish", "/__mock/page_versions/{versionId}/publish"],
  ["POST", "/__mock/page_versions/version_404/publish", "/__mock/page_versions/{versionId}/publish"],
  ["POST", "/__mock/webhook_subscriptions", "/__mock/webhook_subscriptions", { url: "https://hooks.example.com/y", events: null, active: false }],
  ["GET", "/__mock/prospects", "/__mock/prospects"],
  ["GET", "/__mock/prospect_logs", "/__mock/prospect_logs"],
  ["GET", "/__mock/requests", "/__mock/requests"],
  ["GET", "/__mock/requests.har", "/__mock/requests.har"],
  ["GET", "/__mock/state", "/__mock/state"],
  ["GET", "/__mock/webhook_subscriptions/sub_1/secret", "/__mock/webhook_subscriptions/{subscriptionId}/secret"],
  ["GET", "/__mock/webhook_subscriptions/sub_404/secret", "/__mock/webhook_subscriptions/{subscriptionId}/secret"],
  ["POST", "/__mock/faults", "/__mock/faults", { kind: "latency", ms: 1, times: 3, operation: "getPage" }],
  ["GET", "/__mock/faults", "/__mock/faults"],
  ["DELETE", "/__mock/faults", "/__mock/faults"],
  ["POST", "/__mock/faults", "/__mock/faults", { kind: "status", status: 429 }],
  ["GET", "/v0/page_groups/group_1/pages/page_1", "/v0/page_groups/{page_group_id}/pages/{page_id}"],
  ["POST", "/__mock/faults", "/__mock/faults", { kind: "status", status: 500, operation: "updateWebhookSubscription" }],
  ["POST", "/__mock/faults", "/__mock/faults", { kind: "status", status: 503, operation: "getPage", match: { pageId: "page_404" } }],
  ["POST", "/__mock/faults", "/__mock/faults", { kind: "status", status: 503, operation: "getPage", match: { source: "crm" } }],
  ["PATCH", "/v0/webhook_subscriptions/sub_1", "/v0/webhook_subscriptions/{subscription_id}", {}],
  ["POST", "/__mock/webhook_events", "/__mock/webhook_events", { kind: "form.submitted", data: { formId: "f1" } }],
  ["POST", "/__mock/webhook_events", "/__mock/webhook_events", { kind: "page.version.created", data: [] }],
  ["GET", "/__mock/webhook_events", "/__mock/webhook_events"],
  ["POST", "/__mock/webhook_deliveries/run", "/__mock/webhook_deliveries/run"],
  ["GET", "/__mock/webhook_deliveries?subscriptionId=sub_1", "/__mock/webhook_deliveries"],
  ["GET", "/__mock/webhook_deliveries?status=lost", "/__mock/webhook_deliveries"],
  ["POST", "/__mock/webhook_events/event_404/redeliver", "/__mock/webhook_events/{eventId}/redeliver"],
  ["POST", "/__mock/webhook_subscriptions/sub_1/secret/rotate", "/__mock/webhook_subscriptions/{subscriptionId}/secret/rotate"],
  ["POST", "/__mock/webhook_subscriptions/sub_404/secret/rotate", "/__mock/webhook_subscriptions/{subscriptionId}/secret/rotate"],
  ["GET", "/__mock/webhook_subscriptions/sub_1/secret", "/__mock/webhook_subscriptions/{subscriptionId}/secret"],
  ["GET", "/__mock/inbox/openapi", "/__mock/inbox/{name}"],
  ["POST", "/__mock/inbox/openapi", "/__mock/inbox/{name}", { id: "forged" }, null],
  ["POST", "/__mock/inbox/nowhere", "/__mock/inbox/{name}", { id: "forged" }, null],
  ["POST", "/__mock/tenants", "/__mock/tenants"],
  ["GET", "/__mock/tenant", "/__mock/tenant"],
  ["DELETE", "/__mock/tenants/tenant_404", "/__mock/tenants/{tenantId}"],
  ["POST", "/__mock/reset?scope=tenant", "/__mock/reset"],
  ["POST", "/__mock/reset?scope=everything", "/__mock/reset"],
  ["POST", "/__mock/reset", "/__mock/reset"],
  ["GET", "/__mock", "/__mock", undefined, null],
  // Every operation of the table, whatever it is: its path with IDs no resource has, and an empty body where it takes one.
  ...OPERATION_TABLE.map((row): Case => [row.method, fillPath(row, (param) => `openapi_${param.key}`), row.path, row.request && {}]),
];

/** Makes one call of CASES. */
function send([method, path, , body, key]: Case): Promise<Response> {
  const headers: Record<string, string> = key === null ? {} : { "x-api-key": key ?? KEY };
  if (body !== undefined) headers["content-type"] = "application/json";
  return fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
}

/** Headers of the HTTP exchange itself, which an OpenAPI document does not list (RFC 9110, 9112). */
const FRAMING_HEADERS = new Set(["content-type", "content-length", "date", "connection", "keep-alive", "transfer-encoding"]);

describe("a validator built from the document agrees with the live server", () => {
  it("every answer: a documented status and media type, a body valid against the documented schema", async () => {
    const covered = new Set<string>();
    for (const [method, path, template, body, key] of CASES) {
      const response = await send([method, path, template, body, key]);
      const { doc, id } = documentOf(template);
      const operation = doc.paths[template][method.toLowerCase()];
      const where = `${method} ${path} → ${response.status}`;
      expect(operation.responses, where).toHaveProperty(String(response.status));
      const documented = resolve(operation.responses[String(response.status)], doc);
      const mediaType = response.headers.get("content-type")!;
      expect(Object.keys(documented.content), where).toEqual([mediaType]);
      expect(response.headers.get("x-request-id"), where).toMatch(/^req_/);
      const responseRef = operation.responses[String(response.status)].$ref as string | undefined;
      const at = responseRef
        ? `${responseRef.slice(2)}/content/${pointer(mediaType)}/schema`
        : `paths/${pointer(template, method.toLowerCase())}/responses/${response.status}/content/${pointer(mediaType)}/schema`;
      expect(validate(at, await response.json(), id), where).toEqual([]);
      covered.add(`${method} ${template}`);
    }
    const documentedOperations = Object.entries({ ...document.paths, ...control.paths }).flatMap(([path, item]) =>
      Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect([...covered].sort()).toEqual(documentedOperations.sort());
  });

  // Issue 26.7: the CORS headers and Retry-After's type were not in the API's document.
  it("every header a /v0 answer carries is documented for its status, with a schema its value satisfies", async () => {
    const seen = new Set<string>();
    for (const entry of CASES) {
      const response = await send(entry);
      await response.arrayBuffer();
      const [method, path, template] = entry;
      if (!template.startsWith("/v0/")) continue;
      const documented = resolve(document.paths[template][method.toLowerCase()].responses[String(response.status)]);
      for (const [name, value] of response.headers) {
        if (FRAMING_HEADERS.has(name)) continue;
        const where = `${method} ${path} → ${response.status}: ${name}: ${value}`;
        expect(documented.headers, where).toHaveProperty([name]);
        const schema = resolve(documented.headers[name]).schema;
        expect(ajv.validate(schema, schema.type === "integer" ? Number(value) : value), where).toBe(true);
        seen.add(name);
      }
    }
    expect([...seen].sort()).toEqual([
      "access-control-allow-origin",
      "access-control-expose-headers",
      "idempotent-replayed",
      "retry-after",
      "x-request-id",
    ]);
  });

  const requestBody = (template: string, method: string) => `paths/${pointer(template, method)}/requestBody/content/application~1json/schema`;

  it.each([
    ["a minimal body", { source: "crm", payload: {} }],
    [
      "every field",
      {
        source: "crm",
        type: "email.opened",
        payload: { x: [1] },
        prospectId: `prospect_${"a".repeat(26)}`,
        email: "a@b.co",
        phoneNumber: "+14155550100",
        linkedinProfileUrl: "https://linkedin.com/in/a",
        idempotencyKey: "k",
        name: "A",
      },
    ],
    ["no source", { payload: {} }],
    ["a source of 101 characters", { source: "s".repeat(101), payload: {} }],
    ["an empty type", { source: "crm", type: "", payload: {} }],
    ["a payload that is an array", { source: "crm", payload: [] }],
    ["an unknown field", { source: "crm", payload: {}, emial: "a@b.co" }],
    ["a prospect ID in upper case", { source: "crm", payload: {}, prospectId: `prospect_${"A".repeat(26)}` }],
    ["a phone number without +", { source: "crm", payload: {}, phoneNumber: "14155550100" }],
    ["an address without a domain", { source: "crm", payload: {}, email: "ada@" }],
    ["an idempotency key of 256 characters", { source: "crm", payload: {}, idempotencyKey: "k".repeat(256) }],
  ])("createProspectLog, %s: valid by the document exactly when the server accepts it", async (_, body) => {
    const valid = validate(requestBody("/v0/prospect_logs", "post"), body).length === 0;
    const response = await fetch(`${server.url}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect({ valid, accepted: response.status === 201 }).toEqual({ valid, accepted: valid });
  });

  it.each([
    ["an empty update", {}],
    ["every field", { url: "http://hooks.example.com/in", events: ["page.version.created", "form.enriched"], active: true }],
    ["an ftp URL", { url: "ftp://hooks.example.com/in" }],
    ["a relative URL", { url: "/in" }],
    ["an empty events list", { events: [] }],
    ["an unknown event kind", { events: ["page.deleted"] }],
    ["events null", { events: null }],
    ["active as a string", { active: "true" }],
    ["an unknown field", { actve: true }],
  ])("updateWebhookSubscription, %s: valid by the document exactly when the server accepts it", async (_, body) => {
    const valid = validate(requestBody("/v0/webhook_subscriptions/{subscription_id}", "patch"), body).length === 0;
    const response = await fetch(`${server.url}/v0/webhook_subscriptions/sub_1`, {
      method: "PATCH",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect({ valid, accepted: response.status === 200 }).toEqual({ valid, accepted: valid });
  });
});

describe('the url rule (BEHAVIOUR.md, "url"): the published pattern, the server and the response schema agree', () => {
  const subscriptionPath = "/v0/webhook_subscriptions/{subscription_id}";
  const okResponse = `paths/${pointer(subscriptionPath, "patch")}/responses/200/content/application~1json/schema`;
  const patchUrl = async (url: string) => {
    const response = await fetch(`${server.url}/v0/webhook_subscriptions/sub_1`, {
      method: "PATCH",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ url }),
    });
    return { status: response.status, body: await response.json() };
  };

  it("property: every value the request pattern in /openapi.json matches is accepted, and the answer validates against the response schema", async () => {
    const pattern = new RegExp(document.components.schemas.WebhookSubscriptionUpdate.properties.url.pattern);
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(pattern), async (url) => {
        fc.pre(url.length <= 2048);
        const answer = await patchUrl(url);
        expect(answer.status).toBe(200);
        expect(answer.body.url).toBe(url);
        expect(validate(okResponse, answer.body)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  /** URL-like strings with what the rule is about: non-ASCII, user info, ports, brackets, escapes, spaces, characters RFC 3986 refuses. */
  const urlish = fc
    .tuple(
      fc.constantFrom("http://", "HTTPS://", "https://", "ftp://", "http:/", ""),
      fc.constantFrom("", "user@", "user:pw@", ":@"),
      fc.constantFrom(
        "example.com",
        "bücher.example",
        "a.1",
        "a.0x1f",
        "1.2.3.4",
        "256.1.1.1",
        "[::1]",
        "[::1",
        "[:::]",
        "%41.example",
        "xn--bcher-kva.example",
        "a..b",
        "",
      ),
      fc.constantFrom("", ":", ":0", ":65535", ":65536", ":99999", ":8x"),
      fc.array(fc.constantFrom("/", "a", "%41", "%zz", "%", "{", "|", "^", "\\", " ", "\t", "é", "?", "#", "[", "@", ":", "'"), { maxLength: 6 }),
    )
    .map(([scheme, user, host, port, rest]) => scheme + user + host + port + rest.join(""));

  it("property: the server accepts a url exactly when the published request schema does, and every url it accepts answers a response that validates", async () => {
    const request = `paths/${pointer(subscriptionPath, "patch")}/requestBody/content/application~1json/schema`;
    await fc.assert(
      fc.asyncProperty(urlish, async (url) => {
        const valid = validate(request, { url }).length === 0;
        const answer = await patchUrl(url);
        expect({ url, accepted: answer.status === 200 }).toEqual({ url, accepted: valid });
        if (answer.status === 200) expect(validate(okResponse, answer.body)).toEqual([]);
        else expect(answer.body.errors).toEqual([expect.objectContaining({ pointer: "/url", code: "invalid_format" })]);
      }),
      { numRuns: 500 },
    );
  });
});
