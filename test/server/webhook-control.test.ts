/**
 * The control API's webhook routes over HTTP: redelivery (same webhook-id, new timestamp and
 * signature), secret rotation (both secrets sign), the built-in inbox, tenant scoping, bad input
 * refused with nothing changed, and the CLI's line per delivery attempt.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { type CliProcess, startCli } from "./support/cli-process.js";
import { undescribedAnswers, watchControlAnswers } from "./support/control-answers.js";
import { call, type Receiver, startReceiver, until } from "./support/webhooks.js";

const A = "key_tenant_a";
const B = "key_tenant_b";
let clock = Date.now();
let hooks: Receiver;
let mock: MockServer;

beforeAll(async () => {
  hooks = await startReceiver();
  mock = await startMockServer({
    port: 0,
    apiKeys: { [A]: "tenant_a", [B]: "tenant_b" },
    now: () => clock,
    fixtures(state, { url }) {
      state.webhookSubscriptions.create({ tenantId: "tenant_a", id: "sub_a", url: `${hooks.url}/a`, events: ["form.submitted"] });
      state.webhookSubscriptions.create({ tenantId: "tenant_a", id: "sub_inbox", url: `${url}/__mock/inbox/mine`, events: ["form.enriched"] });
      state.webhookSubscriptions.create({ tenantId: "tenant_b", id: "sub_b", url: `${hooks.url}/b` });
    },
  });
});
afterAll(async () => {
  await mock.close();
  await hooks.close();
});

const emit = (key: string, kind: string, data: unknown) => call(mock.url, key, "POST", "/__mock/webhook_events", { kind, data });
const received = (path: string) => hooks.received.filter((request) => request.path === path);

describe("redelivery", () => {
  it("sends the same webhook-id and body again, with a new timestamp and signature", async () => {
    const event = (await emit(A, "form.submitted", { formId: "f1" })).body;
    await until(() => received("/a").length === 1, "the first delivery");
    clock += 90_000;
    const again = await call(mock.url, A, "POST", `/__mock/webhook_events/${event.id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject([{ eventId: event.id, subscriptionId: "sub_a", attempt: 2, ok: true, status: 204, redelivery: true }]);
    const [first, second] = received("/a");
    expect(second!.headers["webhook-id"]).toBe(event.id);
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"]);
    expect(second!.body).toBe(first!.body);
    expect(Number(second!.headers["webhook-timestamp"]) - Number(first!.headers["webhook-timestamp"])).toBe(90);
    expect(second!.headers["webhook-signature"]).not.toBe(first!.headers["webhook-signature"]);
    const secret = (await call(mock.url, A, "GET", "/__mock/webhook_subscriptions/sub_a/secret")).body.secret;
    for (const request of [first!, second!]) expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({ id: event.id });
  });
});

describe("secret rotation", () => {
  it("the new secret signs, and the previous one still does beside it (two v1 signatures)", async () => {
    const before = (await call(mock.url, A, "GET", "/__mock/webhook_subscriptions/sub_a/secret")).body;
    expect(before).toEqual({ id: "sub_a", secret: expect.stringMatching(/^whsec_/), previousSecret: null });
    const rotated = (await call(mock.url, A, "POST", "/__mock/webhook_subscriptions/sub_a/secret/rotate")).body;
    expect(rotated).toEqual({
      id: "sub_a",
      secret: expect.stringMatching(/^whsec_/),
      previousSecret: { secret: before.secret, expiresAt: expect.any(String) },
    });
    expect(rotated.secret).not.toBe(before.secret);
    expect((await call(mock.url, A, "GET", "/__mock/webhook_subscriptions/sub_a/secret")).body).toEqual(rotated);
    const count = received("/a").length;
    await emit(A, "form.submitted", { rotated: true });
    await until(() => received("/a").length > count, "a delivery after the rotation");
    const request = received("/a").at(-1)!;
    expect(request.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    for (const secret of [rotated.secret, before.secret])
      expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({ data: { rotated: true } });
  });
});

describe("the built-in inbox", () => {
  it("receives, verifies and lists a delivery for the tenant of the subscription pointing at it", async () => {
    const event = (await emit(A, "form.enriched", { score: 0.9 })).body;
    const [message] = await until(async () => {
      const list = (await call(mock.url, A, "GET", "/__mock/inbox/mine")).body.data as unknown[];
      return list.length > 0 ? list : undefined;
    }, "the inbox message");
    expect(message).toMatchObject({
      inbox: "mine",
      headers: { "webhook-id": event.id },
      event: { id: event.id, type: "form.enriched", data: { score: 0.9 } },
      verification: { verified: true, subscriptionId: "sub_inbox", code: null },
    });
    const [delivery] = (await call(mock.url, A, "GET", `/__mock/webhook_deliveries?eventId=${event.id}`)).body.data;
    expect(delivery.attempts[0]).toMatchObject({ ok: true, status: 200 });
    expect(JSON.parse(delivery.attempts[0].response)).toEqual({ verified: true, subscriptionId: "sub_inbox", code: null, message: null });
    expect((await call(mock.url, B, "GET", "/__mock/inbox/mine")).body).toEqual({ data: [] });
  });

  it("a forged request is answered 400 and listed as unverified; an inbox nobody points at is a 404", async () => {
    const headers = {
      "content-type": "application/json",
      "webhook-id": "msg_x",
      "webhook-timestamp": String(Math.floor(clock / 1000)),
      "webhook-signature": "v1,Zm9yZ2Vk",
    };
    const forged = await fetch(`${mock.url}/__mock/inbox/mine`, { method: "POST", headers, body: '{"id":"msg_x"}' });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: "invalid_request", detail: expect.stringContaining("invalid_signature") });
    const list = (await call(mock.url, A, "GET", "/__mock/inbox/mine")).body.data;
    expect(list.at(-1)).toMatchObject({ body: '{"id":"msg_x"}', event: null, verification: { verified: false, code: "invalid_signature" } });
    const nowhere = await fetch(`${mock.url}/__mock/inbox/nowhere`, { method: "POST", headers, body: "{}" });
    expect(nowhere.status).toBe(404);
  });
});

describe("tenant scoping and bad input: 400/404 problem+json, nothing changed", () => {
  const snapshot = async () => ({
    events: (await call(mock.url, A, "GET", "/__mock/webhook_events")).body,
    deliveries: (await call(mock.url, A, "GET", "/__mock/webhook_deliveries")).body,
    secret: (await call(mock.url, A, "GET", "/__mock/webhook_subscriptions/sub_a/secret")).body,
    eventsB: (await call(mock.url, B, "GET", "/__mock/webhook_events")).body,
  });

  it("each tenant lists only its own events and deliveries", async () => {
    await emit(B, "form.submitted", { tenant: "b" });
    const eventsA = (await call(mock.url, A, "GET", "/__mock/webhook_events")).body.data as { data: object }[];
    const eventsB = (await call(mock.url, B, "GET", "/__mock/webhook_events")).body.data as { data: object }[];
    expect(eventsB.map((event) => event.data)).toEqual([{ tenant: "b" }]);
    expect(eventsA.map((event) => event.data)).not.toContainEqual({ tenant: "b" });
    const deliveriesB = (await call(mock.url, B, "GET", "/__mock/webhook_deliveries")).body.data as { subscriptionId: string }[];
    expect(deliveriesB.map((delivery) => delivery.subscriptionId)).toEqual(["sub_b"]);
  });

  it.each<[string, string, string, unknown, number, string | undefined]>([
    ["an unknown kind", "POST", "/__mock/webhook_events", { kind: "page.version.created", data: {} }, 400, "/kind"],
    ["data not an object", "POST", "/__mock/webhook_events", { kind: "form.submitted", data: [1, 2] }, 400, "/data"],
    ["data missing", "POST", "/__mock/webhook_events", { kind: "form.enriched" }, 400, "/data"],
    ["an unknown field", "POST", "/__mock/webhook_events", { kind: "form.submitted", data: {}, tenantId: "tenant_b" }, 400, "/tenantId"],
    ["an unknown delivery status", "GET", "/__mock/webhook_deliveries?status=lost", undefined, 400, "/status"],
    ["an unknown subscription's secret", "GET", "/__mock/webhook_subscriptions/sub_404/secret", undefined, 404, undefined],
    ["rotating an unknown subscription", "POST", "/__mock/webhook_subscriptions/sub_404/secret/rotate", undefined, 404, undefined],
    ["rotating another tenant's subscription", "POST", "/__mock/webhook_subscriptions/sub_b/secret/rotate", undefined, 404, undefined],
    ["redelivering an unknown event", "POST", "/__mock/webhook_events/event_404/redeliver", undefined, 404, undefined],
  ])("%s", async (_rule, method, path, body, status, pointer) => {
    const before = await snapshot();
    const answer = await fetch(`${mock.url}${path}`, {
      method,
      headers: { "x-api-key": A, ...(body !== undefined && { "content-type": "application/json" }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    expect(answer.status).toBe(status);
    expect(answer.headers.get("content-type")).toBe("application/problem+json");
    const problem = await answer.json();
    if (pointer !== undefined) expect(problem.errors.map((error: { pointer: string }) => error.pointer)).toContain(pointer);
    expect(await snapshot()).toEqual(before);
  });

  it("redelivering another tenant's event is a 404, and it is not sent", async () => {
    const eventB = (await call(mock.url, B, "GET", "/__mock/webhook_events")).body.data[0];
    const count = received("/b").length;
    const before = await snapshot();
    expect((await call(mock.url, A, "POST", `/__mock/webhook_events/${eventB.id}/redeliver`)).status).toBe(404);
    expect(received("/b")).toHaveLength(count);
    expect(await snapshot()).toEqual(before);
  });
});

describe("the CLI: one line per delivery attempt, and the demo inbox", () => {
  let cli: CliProcess;
  beforeAll(async () => {
    cli = await startCli(["--port", "0"]);
  });
  afterAll(() => cli.stop());

  it("publishing a version delivers to the demo inbox, verified, and prints the attempt", async () => {
    const M = `${cli.url}/__mock`;
    const key = "mock_api_key";
    await call(M, key, "POST", "/page_versions", { id: "pageversion_demo_2", pageId: "page_demo" });
    await call(M, key, "POST", "/page_versions/pageversion_demo_2/process", { computedName: "Plans and prices" });
    await call(M, key, "POST", "/page_versions/pageversion_demo_2/publish");
    await cli.waitFor(/\d\d:\d\d:\d\d\.\d{3} webhook page\.version\.published http:\/\/127\.0\.0\.1:\d+\/__mock\/inbox\/demo 200 \d+\.\d ms\n/);
    const inbox = (await call(M, key, "GET", "/inbox/demo")).body.data;
    expect(inbox).toMatchObject([{ event: { type: "page.version.published", data: { pageId: "page_demo" } }, verification: { verified: true } }]);
  });

  it("--quiet prints no attempt line", async () => {
    const quiet = await startCli(["--port", "0", "--quiet"]);
    try {
      await call(`${quiet.url}/__mock`, "mock_api_key", "POST", "/webhook_subscriptions", { url: `${quiet.url}/__mock/inbox/q` });
      await call(`${quiet.url}/__mock`, "mock_api_key", "POST", "/webhook_events", { kind: "form.submitted", data: {} });
      await until(async () => (await call(`${quiet.url}/__mock`, "mock_api_key", "GET", "/inbox/q")).body.data.length > 0, "the delivery");
      expect(quiet.stdout()).not.toMatch(/^\d\d:\d\d:\d\d\.\d{3} webhook /m);
      expect(quiet.stdout()).toContain("webhook subscription"); // the banner is still printed
    } finally {
      await quiet.stop();
    }
  });
});

// Issue 32: the control document states exactly what the server does; every answer this suite received is one it describes.
const watched = watchControlAnswers();
describe("the control API's OpenAPI document", () => {
  it("describes every answer this suite received from a control route: its status, media type and body", async () => {
    await watched.settled();
    const { problems, checked } = undescribedAnswers(watched.answers);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });
});
