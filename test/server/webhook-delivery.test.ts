/**
 * Real webhook delivery from the standalone server: every due delivery is a signed POST over
 * real HTTP (verified here by the official `standardwebhooks` package), and every way a
 * receiver can fail is recorded with its reason and retried on the (scaled) schedule, without
 * slowing the API, holding the process open or growing memory without bound.
 */
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_WEBHOOK_CONCURRENCY } from "../../mock/server/delivery.js";
import { type MockServer, type MockServerOptions, startMockServer } from "../../mock/server/index.js";
import { WEBHOOK_ATTEMPT_TIMEOUT_MS } from "../../mock/webhooks/index.js";
import type { WebhookEventKind } from "../../src/index.js";
import { call, type Receiver, refusingUrl, startReceiver, until } from "./support/webhooks.js";

const KEY = "key_hooks";
const SUBSCRIPTION = "webhooksubscription_hooks";
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function server(url: string, webhooks: MockServerOptions["webhooks"] = {}, events: WebhookEventKind[] | null = null): Promise<MockServer> {
  const started = await startMockServer({
    port: 0,
    apiKeys: [KEY],
    webhooks,
    fixtures: (state) => state.webhookSubscriptions.create({ id: SUBSCRIPTION, url, events }),
  });
  cleanup.push(() => started.close());
  return started;
}

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(answer);
  cleanup.push(() => started.close());
  return started;
}

const formEvent = (base: string, data: object = { formId: "f1" }) =>
  call(base, KEY, "POST", "/__mock/webhook_events", { kind: "form.submitted", data });
const deliveries = async (base: string) => (await call(base, KEY, "GET", "/__mock/webhook_deliveries")).body.data as any[];
const secretOf = async (base: string) => (await call(base, KEY, "GET", `/__mock/webhook_subscriptions/${SUBSCRIPTION}/secret`)).body.secret as string;

describe("every due delivery is a signed POST over real HTTP", () => {
  it("all six kinds arrive, each verified by the official standardwebhooks package", async () => {
    const hooks = await receiver();
    const mock = await server(`${hooks.url}/in`);
    const version = (await call(mock.url, KEY, "POST", "/__mock/pages", {})).body;
    const created = (await call(mock.url, KEY, "POST", "/__mock/page_versions", { pageId: version.pageId })).body;
    await call(mock.url, KEY, "POST", `/__mock/page_versions/${created.id}/process`, { computedName: "Home" });
    await call(mock.url, KEY, "POST", `/__mock/page_versions/${created.id}/publish`);
    for (const kind of ["form.submitted", "form.enriched", "form.enrichment_failed"]) {
      expect((await call(mock.url, KEY, "POST", "/__mock/webhook_events", { kind, data: { kind } })).status).toBe(201);
    }
    await until(() => hooks.received.length >= 6, "six deliveries");
    const verifier = new Webhook(await secretOf(mock.url));
    const types = hooks.received.map((request) => {
      expect(request.path).toBe("/in");
      expect(request.headers["content-type"]).toBe("application/json");
      return (verifier.verify(request.body, request.headers) as { type: string }).type;
    });
    expect(types.sort()).toEqual([
      "form.enriched",
      "form.enrichment_failed",
      "form.submitted",
      "page.version.created",
      "page.version.processed",
      "page.version.published",
    ]);
    const recorded = await until(
      async () => ((await deliveries(mock.url)).every((d) => d.status === "succeeded") ? deliveries(mock.url) : undefined),
      "six succeeded",
    );
    expect(recorded).toHaveLength(6);
    for (const delivery of recorded) {
      expect(delivery.attempts).toEqual([
        expect.objectContaining({ attempt: 1, ok: true, status: 204, reason: null, response: "", redelivery: false }),
      ]);
      expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("an inactive subscription and one whose events exclude the kind receive nothing", async () => {
    const hooks = await receiver();
    const mock = await server(`${hooks.url}/only-published`, {}, ["page.version.published"]);
    await formEvent(mock.url);
    await call(mock.url, KEY, "PATCH", `/v0/webhook_subscriptions/${SUBSCRIPTION}`, { active: false, events: ["form.submitted"] });
    await formEvent(mock.url);
    expect((await call(mock.url, KEY, "GET", "/__mock/webhook_events")).body.data).toHaveLength(2);
    expect(await deliveries(mock.url)).toEqual([]);
    expect((await call(mock.url, KEY, "POST", "/__mock/webhook_deliveries/run")).body).toEqual({ data: [] });
    expect(hooks.received).toEqual([]);
  });

  it("deliver: false (--no-webhooks) records events and sends nothing until asked", async () => {
    const hooks = await receiver();
    const mock = await server(`${hooks.url}/in`, { deliver: false });
    await formEvent(mock.url);
    await new Promise((resolve) => setTimeout(resolve, 300)); // six ticks of the delivery timer
    expect(hooks.received).toEqual([]);
    expect(await deliveries(mock.url)).toMatchObject([{ status: "pending", attempts: [] }]);
    const run = await call(mock.url, KEY, "POST", "/__mock/webhook_deliveries/run");
    expect(run.body.data).toMatchObject([{ ok: true, status: 204 }]);
    expect(hooks.received).toHaveLength(1);
  });
});

describe("a failing receiver: each fault recorded with its reason and retried on the scaled schedule", () => {
  // 1000x: the 5 s retry comes after 5 ms, the 5 min one after 300 ms.
  const SCALE = 1000;

  it("a refused connection: reason refused, retried", async () => {
    const mock = await server(await refusingUrl(), { timeScale: SCALE });
    await formEvent(mock.url);
    const [delivery] = await until(async () => ((await deliveries(mock.url))[0]?.attempts.length >= 2 ? deliveries(mock.url) : undefined), "a retry");
    expect(delivery.attempts.slice(0, 2)).toMatchObject([
      { attempt: 1, ok: false, status: null, reason: "refused", response: null },
      { attempt: 2, ok: false, reason: "refused" },
    ]);
    expect(delivery.attempts[0].error).toMatch(/ECONNREFUSED/);
    expect(Date.parse(delivery.attempts[1].at) - Date.parse(delivery.attempts[0].at)).toBeGreaterThanOrEqual(5);
  });

  it("500 then 200: the first attempt keeps the answer's excerpt, the retry succeeds", async () => {
    const hooks = await receiver((_, response, n) =>
      n === 0 ? response.writeHead(500).end("boom: database down") : response.writeHead(200).end("ok"),
    );
    const mock = await server(`${hooks.url}/flaky`, { timeScale: SCALE });
    await formEvent(mock.url);
    const [delivery] = await until(
      async () => ((await deliveries(mock.url))[0]?.status === "succeeded" ? deliveries(mock.url) : undefined),
      "success",
    );
    expect(delivery.attempts).toMatchObject([
      { attempt: 1, ok: false, status: 500, reason: "status", error: "HTTP 500", response: "boom: database down" },
      { attempt: 2, ok: true, status: 200, reason: null, response: "ok" },
    ]);
    expect(hooks.received[0]!.headers["webhook-id"]).toBe(hooks.received[1]!.headers["webhook-id"]);
  });

  it("a redirect is a failure, never followed", async () => {
    const target = await receiver();
    const hooks = await receiver((_, response) => response.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    const mock = await server(`${hooks.url}/moved`, { timeScale: SCALE });
    await formEvent(mock.url);
    const [delivery] = await until(async () => ((await deliveries(mock.url))[0]?.attempts.length >= 2 ? deliveries(mock.url) : undefined), "a retry");
    expect(delivery.attempts[0]).toMatchObject({ ok: false, status: 302, reason: "redirect" });
    expect(target.received).toEqual([]);
  });

  it("a 10 MB answer: 1 KiB of it is kept, the rest is never read", async () => {
    let written = 0;
    const hooks = await receiver((_, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(64 * 1024, "x");
      const write = () => {
        while (written < 10 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once("drain", write);
        }
        response.end();
      };
      write();
    });
    const mock = await server(`${hooks.url}/big`, { timeScale: SCALE });
    await formEvent(mock.url);
    const [delivery] = await until(
      async () => ((await deliveries(mock.url))[0]?.status === "succeeded" ? deliveries(mock.url) : undefined),
      "success",
    );
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0].response).toBe("x".repeat(1024));
    expect(written, "the receiver was cut off long before 10 MB").toBeLessThan(10 * 1024 * 1024);
  });

  it(`an answer after 20 s times out after the default ${WEBHOOK_ATTEMPT_TIMEOUT_MS} ms and is retried`, async () => {
    const timers: NodeJS.Timeout[] = [];
    const hooks = await receiver((_, response) => void timers.push(setTimeout(() => response.writeHead(200).end(), 20_000)));
    cleanup.push(async () => timers.forEach(clearTimeout));
    const mock = await server(`${hooks.url}/slow`, { timeScale: SCALE });
    await formEvent(mock.url);
    const [delivery] = await until(
      async () => ((await deliveries(mock.url))[0]?.attempts.length >= 1 ? deliveries(mock.url) : undefined),
      "the timeout",
      30_000,
    );
    expect(delivery.attempts[0]).toMatchObject({ ok: false, status: null, reason: "timeout", error: "timeout after 15000 ms" });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(WEBHOOK_ATTEMPT_TIMEOUT_MS - 50);
    expect(delivery.status).toBe("pending");
    await until(() => hooks.received.length >= 2, "the retry");
  }, 40_000);

  it("a receiver that never answers: a timeout; the API answers while attempts hang; at most the concurrency limit in flight", async () => {
    const hooks = await receiver(() => undefined);
    const mock = await server(`${hooks.url}/void`, { timeScale: SCALE, timeoutMs: 400 });
    for (let i = 0; i < 20; i++) await formEvent(mock.url, { i });
    await until(() => hooks.open.now >= DEFAULT_WEBHOOK_CONCURRENCY, "the slots filled");
    const page = await call(mock.url, KEY, "GET", "/v0/page_groups/none/pages/none");
    expect(page.status).toBe(404);
    expect(mock.api.webhooks.inFlight(), "answered while attempts were still hanging").toBeGreaterThan(0);
    const timedOut = await until(async () => (await deliveries(mock.url)).find((d) => d.attempts.length > 0), "a timeout");
    expect(timedOut.attempts[0]).toMatchObject({ ok: false, reason: "timeout", error: "timeout after 400 ms" });
    await until(() => hooks.received.length >= 20, "every delivery tried");
    expect(hooks.open.max).toBe(DEFAULT_WEBHOOK_CONCURRENCY);
  });

  it("closing the server with deliveries pending and a receiver hanging returns at once", async () => {
    const hooks = await receiver(() => undefined);
    const mock = await startMockServer({
      port: 0,
      apiKeys: [KEY],
      fixtures: (state) => state.webhookSubscriptions.create({ id: SUBSCRIPTION, url: `${hooks.url}/void` }),
    });
    for (let i = 0; i < 30; i++) await formEvent(mock.url, { i });
    await until(() => hooks.open.now > 0, "an attempt in flight");
    await mock.close(); // the test's own timeout (5 s) is far below the 15 s an attempt could hang
    await until(() => hooks.open.now === 0, "the receiver's connections closed", 2_000);
  });

  it("a subscription failing for 5 days (scaled) becomes inactive and receives nothing more", async () => {
    const mock = await server(await refusingUrl(), { timeScale: 1_000_000 }); // 5 days pass in 432 ms
    const subscription = () => mock.api.state.webhookSubscriptions.get(SUBSCRIPTION)!;
    await until(async () => {
      if (!subscription().active) return true;
      await formEvent(mock.url);
      await new Promise((resolve) => setTimeout(resolve, 40));
      return false;
    }, "deactivation");
    const before = (await deliveries(mock.url)).length;
    expect((await deliveries(mock.url)).filter((d) => d.status === "pending")).toEqual([]);
    await formEvent(mock.url);
    expect(await deliveries(mock.url)).toHaveLength(before);
  });

  it("the record is bounded: past maxRecords the oldest settled deliveries and events are forgotten", async () => {
    const hooks = await receiver();
    const mock = await server(`${hooks.url}/in`, { maxRecords: 5 });
    for (let i = 0; i < 12; i++) {
      await formEvent(mock.url, { i });
      await until(() => hooks.received.length > i, "a delivery");
    }
    const kept = await deliveries(mock.url);
    expect(kept).toHaveLength(5);
    expect(kept.map((d) => JSON.parse(d.body).data.i)).toEqual([7, 8, 9, 10, 11]);
    expect((await call(mock.url, KEY, "GET", "/__mock/webhook_events")).body.data).toHaveLength(5);
  });
});
