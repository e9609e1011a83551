/**
 * Rules (BEHAVIOUR.md, "The standalone server on a developer's machine"): secrets stay behind the
 * secret route, the inbox is tenant-scoped, routes that take no body refuse one and change nothing,
 * and a URL with a user name and password is refused (so no log line can print the password).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CONTROL_ROUTES } from "../../mock/control/routes.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { signWebhook } from "../../src/webhooks/index.js";
import { type CliProcess, startCli } from "./support/cli-process.js";

const A = "key_tenant_a";
const B = "key_tenant_b";

async function call(
  base: string,
  key: string | null,
  method: string,
  path: string,
  init: { json?: unknown; raw?: string; contentType?: string } = {},
) {
  const headers: Record<string, string> = key === null ? {} : { "x-api-key": key };
  const body = init.raw ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
  if (body !== undefined) headers["content-type"] = init.contentType ?? "application/json";
  const response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined && { body }) });
  const text = await response.text();
  return { status: response.status, text, body: text === "" ? undefined : JSON.parse(text) };
}

describe("secrets stay behind the secret route (over the CLI)", () => {
  let cli: CliProcess;
  beforeAll(async () => {
    cli = await startCli(["--port", "0", "--quiet"]);
  });
  afterAll(() => cli.stop());

  it("after a rotation, no GET route but the secret route carries a signing secret, current or previous", async () => {
    const key = "mock_api_key";
    const id = "webhooksubscription_demo";
    const rotated = await call(cli.url, key, "POST", `/__mock/webhook_subscriptions/${id}/secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.previousSecret.secret).toMatch(/^whsec_/);
    const secrets = [rotated.body.secret as string, rotated.body.previousSecret.secret as string];
    // Something in every listing: a log, an event and its delivery, a request.
    await call(cli.url, key, "POST", "/v0/prospect_logs", { json: { source: "crm", payload: {} } });
    await call(cli.url, key, "POST", "/__mock/webhook_events", { json: { kind: "form.submitted", data: { formId: "f1" } } });
    const listings = CONTROL_ROUTES.filter((route) => route.method === "GET" && !route.path.endsWith("/secret")).map((route) =>
      route.path.replace("{subscriptionId}", id).replace("{name}", "demo"),
    );
    expect(listings).toContain("/__mock/state");
    for (const path of listings) {
      const answer = await call(cli.url, key, "GET", path);
      expect(answer.status, path).toBe(200);
      for (const secret of secrets) expect(answer.text, path).not.toContain(secret);
      // No secret of any subscription: a whsec_ and its key (the index's summaries name the prefix in words).
      expect(answer.text, path).not.toMatch(/whsec_[A-Za-z0-9+/=]{8,}/);
    }
    const secret = await call(cli.url, key, "GET", `/__mock/webhook_subscriptions/${id}/secret`);
    expect([secret.body.secret, secret.body.previousSecret.secret]).toEqual(secrets);
  });
});

describe("the inbox is tenant-scoped: a message belongs to the tenant whose secret signed it", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, apiKeys: { [A]: "tenant_a", [B]: "tenant_b" }, webhooks: { deliver: false } });
  });
  afterAll(() => server.close());
  beforeEach(() => server.api.reset());

  const publishFor = async (key: string, id: string) => {
    await call(server.url, key, "POST", "/__mock/page_groups", { json: { id: `group_${id}` } });
    await call(server.url, key, "POST", "/__mock/pages", { json: { id: `page_${id}`, pageGroupId: `group_${id}` } });
    await call(server.url, key, "POST", "/__mock/page_versions", { json: { id: `version_${id}`, pageId: `page_${id}` } });
    await call(server.url, key, "POST", `/__mock/page_versions/version_${id}/process`, { json: { computedName: `Private ${id}` } });
    expect((await call(server.url, key, "POST", `/__mock/page_versions/version_${id}/publish`)).status).toBe(200);
  };

  it("tenant B pointing at tenant A's inbox name (on any host) reads none of A's deliveries", async () => {
    const a = await call(server.url, A, "POST", "/__mock/webhook_subscriptions", {
      json: { url: `${server.url}/__mock/inbox/team`, events: ["page.version.published"] },
    });
    const b = await call(server.url, B, "POST", "/__mock/webhook_subscriptions", { json: { url: "https://elsewhere.example/__mock/inbox/team" } });
    expect([a.status, b.status]).toEqual([201, 201]);
    await publishFor(A, "a");
    const attempts = await call(server.url, A, "POST", "/__mock/webhook_deliveries/run");
    expect(attempts.body.data.map((attempt: { status: number }) => attempt.status)).toEqual([200]);
    const ofA = await call(server.url, A, "GET", "/__mock/inbox/team");
    const ofB = await call(server.url, B, "GET", "/__mock/inbox/team");
    expect(ofA.body.data).toHaveLength(1);
    expect(ofA.body.data[0].verification).toMatchObject({ verified: true, subscriptionId: a.body.id });
    expect(ofB.body.data).toEqual([]);
    expect(ofB.text).not.toContain("Private a");
  });

  it("an old delivery (outside the time tolerance) still belongs to its signer: shown to it as unverified, to nobody else", async () => {
    const a = await call(server.url, A, "POST", "/__mock/webhook_subscriptions", { json: { url: `${server.url}/__mock/inbox/team` } });
    await call(server.url, B, "POST", "/__mock/webhook_subscriptions", { json: { url: `${server.url}/__mock/inbox/team` } });
    const secret = (await call(server.url, A, "GET", `/__mock/webhook_subscriptions/${a.body.id}/secret`)).body.secret as string;
    const body = JSON.stringify({ id: "event_old", type: "form.submitted", createdAt: "2020-01-01T00:00:00.000Z", data: { private: "of a" } });
    const timestamp = Math.floor(Date.now() / 1000) - 3600;
    const signature = await signWebhook({ secret, id: "event_old", timestamp, body });
    const sent = await fetch(`${server.url}/__mock/inbox/team`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "event_old",
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signature,
      },
      body,
    });
    expect(sent.status).toBe(400);
    const ofA = await call(server.url, A, "GET", "/__mock/inbox/team");
    expect(ofA.body.data.map((m: { verification: { verified: boolean; code: string } }) => m.verification)).toEqual([
      expect.objectContaining({ verified: false, code: "timestamp_too_old" }),
    ]);
    expect((await call(server.url, B, "GET", "/__mock/inbox/team")).body.data).toEqual([]);
  });

  it("a request no secret signed is shown, marked invalid, to every tenant pointing at the inbox", async () => {
    await call(server.url, A, "POST", "/__mock/webhook_subscriptions", { json: { url: `${server.url}/__mock/inbox/team` } });
    await call(server.url, B, "POST", "/__mock/webhook_subscriptions", { json: { url: `${server.url}/__mock/inbox/team` } });
    const forged = await fetch(`${server.url}/__mock/inbox/team`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(forged.status).toBe(400);
    for (const key of [A, B]) {
      const list = await call(server.url, key, "GET", "/__mock/inbox/team");
      expect(list.body.data.map((m: { verification: { verified: boolean } }) => m.verification.verified)).toEqual([false]);
    }
  });
});

describe("routes that take no body accept none, an empty one or {}; anything else is refused and changes nothing", () => {
  let cli: CliProcess;
  beforeAll(async () => {
    cli = await startCli(["--port", "0", "--quiet", "--no-webhooks"]);
  });
  afterAll(() => cli.stop());

  const key = "mock_api_key";
  const snapshot = async () =>
    JSON.stringify([
      (await call(cli.url, key, "GET", "/__mock/state")).body,
      (await call(cli.url, key, "GET", "/__mock/webhook_subscriptions/webhooksubscription_demo/secret")).body,
    ]);
  const bodyless = CONTROL_ROUTES.filter((route) => route.method !== "GET" && route.body === undefined);

  it("the table of such routes is what it claims: reset, making and deleting a tenant, run, rotate, redeliver, publish, clearing faults", () => {
    expect(bodyless.map((route) => `${route.method} ${route.path}`).sort()).toEqual(
      [
        "DELETE /__mock/faults",
        "DELETE /__mock/tenants/{tenantId}",
        "POST /__mock/page_versions/{versionId}/publish",
        "POST /__mock/reset",
        "POST /__mock/tenants",
        "POST /__mock/webhook_deliveries/run",
        "POST /__mock/webhook_events/{eventId}/redeliver",
        "POST /__mock/webhook_subscriptions/{subscriptionId}/secret/rotate",
      ].sort(),
    );
  });

  it.each([
    ["malformed JSON", { raw: "{bad" }, 400, "invalid_request"],
    ["an unknown field", { json: { zzUnknown: 1 } }, 400, "invalid_request"],
    ["a JSON array", { json: [] }, 400, "invalid_request"],
    ["text/plain", { raw: "reset please", contentType: "text/plain" }, 415, "unsupported_media_type"],
    ["a body over 1 MiB", { raw: `{"a":"${"x".repeat(1024 * 1024)}"}` }, 413, "payload_too_large"],
  ] as const)("%s: refused on reset and rotate (the status and code of any body), and the state is unchanged", async (_, init, status, code) => {
    await call(cli.url, key, "POST", "/v0/prospect_logs", { json: { source: "crm", payload: {} } });
    const before = await snapshot();
    for (const path of ["/__mock/reset", "/__mock/webhook_subscriptions/webhooksubscription_demo/secret/rotate"]) {
      const answer = await call(cli.url, key, "POST", path, init);
      expect(answer.status, path).toBe(status);
      expect(answer.body.code, path).toBe(code);
    }
    expect(await snapshot()).toBe(before);
  });

  it.each([
    ["no body", {}],
    ["an empty body", { raw: "", contentType: "text/plain" }],
    ["{}", { json: {} }],
  ] as const)("%s: the route runs", async (_, init) => {
    const before = await snapshot();
    const rotated = await call(cli.url, key, "POST", "/__mock/webhook_subscriptions/webhooksubscription_demo/secret/rotate", init);
    expect(rotated.status).toBe(200);
    expect(await snapshot()).not.toBe(before);
    expect((await call(cli.url, key, "POST", "/__mock/reset", init)).status).toBe(200);
  });
});

describe("a URL with a user name or password is refused, so it is never sent nor printed", () => {
  let cli: CliProcess;
  beforeAll(async () => {
    cli = await startCli(["--port", "0"]);
  });
  afterAll(() => cli.stop());

  it.each([
    ["the API", "PATCH", "/v0/webhook_subscriptions/webhooksubscription_demo", { url: "https://ada:s3cret-pw@hooks.example.com/in" }, "/url"],
    ["the control API", "POST", "/__mock/webhook_subscriptions", { url: "https://ada:s3cret-pw@hooks.example.com/in" }, "/url"],
  ])("%s: 400 at %s, and the password is in no answer and no log line", async (_, method, path, json, pointer) => {
    const answer = await call(cli.url, "mock_api_key", method, path, { json });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ pointer, code: "invalid_format" })]);
    expect(answer.text).not.toContain("s3cret-pw");
    await call(cli.url, "mock_api_key", "POST", "/__mock/webhook_deliveries/run");
    expect(cli.stdout()).not.toContain("s3cret-pw");
  });
});
