import { describe, expect, it } from "vitest";
import { verifyWebhook, WEBHOOK_EVENT_KINDS, type WebhookEventKind } from "../../../src/index.js";
import { harness, MINUTE, SECOND, START, target } from "./harness.js";

describe("who receives an event: active targets whose events include the kind, or are null", () => {
  it.each(WEBHOOK_EVENT_KINDS.map((kind) => [kind]))("%s", async (kind) => {
    const others = WEBHOOK_EVENT_KINDS.filter((k) => k !== kind);
    const { dispatcher } = harness();
    dispatcher.emit(kind, {}, [
      target("exact", { events: [kind] }),
      target("among-others", { events: [...others.slice(0, 2), kind] }),
      target("all-kinds", { events: null }),
      target("other-kinds", { events: others }),
      target("inactive-exact", { events: [kind], active: false }),
      target("inactive-all", { events: null, active: false }),
    ]);
    expect(dispatcher.list().map((d) => d.subscriptionId)).toEqual(["exact", "among-others", "all-kinds"]);
  });

  it("a target listed twice receives the event once", () => {
    const { dispatcher } = harness();
    dispatcher.emit("form.submitted", {}, [target("a"), target("a")]);
    expect(dispatcher.list()).toHaveLength(1);
  });

  it("no matching target: the event is still created, nothing is queued or sent", async () => {
    const { dispatcher, received } = harness();
    const event = dispatcher.emit("form.enriched", { formId: "f" }, [target("x", { active: false })]);
    expect(event).toEqual({
      id: "event_00000000000000000000000001",
      type: "form.enriched",
      createdAt: "2024-02-29T12:00:00.000Z",
      data: { formId: "f" },
    });
    await expect(dispatcher.runDue()).resolves.toEqual([]);
    expect(received).toEqual([]);
  });
});

describe("what is sent: a Standard Webhooks POST", () => {
  const data = { pageId: "page_1", versionId: "pageversion_1", note: "Zoë 🚀" };

  it("body { id, type, createdAt, data }, webhook-* headers, JSON content type", async () => {
    const { dispatcher, received } = harness();
    const event = dispatcher.emit("page.version.published", data, [target("s1")]);
    await dispatcher.runDue();
    expect(received).toHaveLength(1);
    const [request] = received;
    expect(request).toMatchObject({ method: "POST", url: "https://hooks.example.com/s1" });
    expect(JSON.parse(request!.body)).toEqual({ id: event.id, type: "page.version.published", createdAt: new Date(START).toISOString(), data });
    expect(request!.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": event.id,
      "webhook-timestamp": String(START / 1000),
      "webhook-signature": expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
  });

  it("verifyWebhook accepts every attempt, each signed for its own time, with the same id and body", async () => {
    const h = harness((_, n) => new Response(null, { status: n < 2 ? 503 : 200 }));
    h.dispatcher.emit("form.submitted", data, [target("s1")]);
    const times: number[] = [];
    for (const wait of [0, 5 * SECOND, 5 * MINUTE]) {
      h.advance(wait);
      times.push(START + h.elapsed);
      await h.dispatcher.runDue();
    }
    expect(h.received.map((r) => Number(r.headers["webhook-timestamp"]) * 1000)).toEqual(times);
    for (const [i, request] of h.received.entries()) {
      const now = new Date(times[i]!);
      await expect(verifyWebhook({ secret: target("s1").secret, headers: request.headers, body: request.body, now })).resolves.toMatchObject({
        type: "form.submitted",
        data,
      });
    }
    expect(new Set(h.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(h.received.map((r) => r.body)).size).toBe(1);
  });

  it("each subscription's deliveries are signed with its own secret", async () => {
    const other = `whsec_${btoa("a different key, 24 byte")}`;
    const { dispatcher, received } = harness();
    dispatcher.emit("form.enriched", {}, [target("a"), target("b", { secret: other })]);
    await dispatcher.runDue();
    const [a, b] = received;
    await expect(verifyWebhook({ secret: other, headers: b!.headers, body: b!.body, now: new Date(START) })).resolves.toBeDefined();
    await expect(verifyWebhook({ secret: other, headers: a!.headers, body: a!.body, now: new Date(START) })).rejects.toMatchObject({
      code: "invalid_signature",
    });
  });
});

describe("what counts as delivered: a 2xx answer, and only that", () => {
  it.each([200, 201, 202, 204, 299])("HTTP %i succeeds; no retry", async (status) => {
    const { dispatcher } = harness(() => new Response(null, { status }));
    dispatcher.emit("form.submitted", {}, [target("s")]);
    const [attempt] = await dispatcher.runDue();
    expect(attempt).toMatchObject({ attempt: 1, ok: true, status, error: null });
    expect(dispatcher.list()[0]).toMatchObject({ status: "succeeded", nextAttemptAt: null });
  });

  it.each<[string, () => Response | Promise<Response>, number | null, string]>([
    ["HTTP 500", () => new Response("boom", { status: 500 }), 500, "HTTP 500"],
    ["HTTP 404", () => new Response(null, { status: 404 }), 404, "HTTP 404"],
    ["HTTP 410", () => new Response(null, { status: 410 }), 410, "HTTP 410"],
    ["a redirect (never followed)", () => new Response(null, { status: 302, headers: { location: "https://elsewhere.example" } }), 302, "HTTP 302"],
    ["a network error", () => Promise.reject(new TypeError("fetch failed")), null, "network error: fetch failed"],
    ["a timeout reported by the network", () => Promise.reject(new DOMException("took too long", "TimeoutError")), null, "timeout after 15000 ms"],
  ])("%s fails and is retried after 5 s", async (_rule, respond, status, error) => {
    const { dispatcher, at } = harness(respond);
    dispatcher.emit("form.submitted", {}, [target("s")]);
    const [attempt] = await dispatcher.runDue();
    expect(attempt).toMatchObject({ attempt: 1, ok: false, status, error });
    expect(dispatcher.list()[0]).toMatchObject({ status: "pending", nextAttemptAt: new Date(START + 5 * SECOND).toISOString() });
    at(5 * SECOND);
    await expect(dispatcher.runDue()).resolves.toMatchObject([{ attempt: 2 }]);
  });

  it("an endpoint that never answers fails after timeoutMs", async () => {
    const { dispatcher } = harness(() => new Promise<Response>(() => undefined), { timeoutMs: 20 });
    dispatcher.emit("form.submitted", {}, [target("s")]);
    await expect(dispatcher.runDue()).resolves.toMatchObject([{ ok: false, status: null, error: "timeout after 20 ms" }]);
  });

  it("an unusable URL is a failed attempt, never an exception", async () => {
    const { dispatcher } = harness();
    dispatcher.emit("form.submitted", {}, [target("s", { url: "not a url" })]);
    await expect(dispatcher.runDue()).resolves.toMatchObject([{ ok: false, status: null, error: expect.stringMatching(/^network error: /) }]);
  });

  it("a malformed secret is a failed attempt whose error never repeats the secret", async () => {
    const { dispatcher, received } = harness();
    dispatcher.emit("form.submitted", {}, [target("s", { secret: "whsec_sup3r-s3cret" })]);
    const [attempt] = await dispatcher.runDue();
    expect(attempt).toMatchObject({ ok: false, status: null });
    expect(attempt!.error).not.toContain("sup3r");
    expect(received).toEqual([]);
  });

  it("sends through globalThis.fetch when no fetch is given (a real HTTP endpoint)", async () => {
    const { createServer } = await import("node:http");
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      req.on("end", () => {
        bodies.push(body);
        void verifyWebhook({ secret: target("s").secret, headers: req.headers, body, now: new Date(START) }).then(
          () => res.writeHead(204).end(),
          () => res.writeHead(400).end(),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const { dispatcher } = harness(undefined, { fetch: undefined });
      dispatcher.emit("page.version.created", { pageId: "p" }, [target("s", { url: `http://127.0.0.1:${port}/hook` })]);
      await expect(dispatcher.runDue()).resolves.toMatchObject([{ ok: true, status: 204 }]);
      expect(bodies).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("bookkeeping", () => {
  it("list() reports every delivery with its attempts; runDue returns the attempts it made", async () => {
    const { dispatcher } = harness((r) => new Response(null, { status: r.url.endsWith("/bad") ? 500 : 200 }));
    const kinds: WebhookEventKind[] = ["page.version.created", "page.version.processed"];
    for (const kind of kinds) dispatcher.emit(kind, {}, [target("good"), target("bad")]);
    const attempts = await dispatcher.runDue();
    expect(attempts.map((a) => [a.eventId.slice(-1), a.subscriptionId, a.ok])).toEqual([
      ["1", "good", true],
      ["1", "bad", false],
      ["2", "good", true],
      ["2", "bad", false],
    ]);
    expect(dispatcher.list().map((d) => [d.type, d.subscriptionId, d.status, d.attempts.length])).toEqual([
      ["page.version.created", "good", "succeeded", 1],
      ["page.version.created", "bad", "pending", 1],
      ["page.version.processed", "good", "succeeded", 1],
      ["page.version.processed", "bad", "pending", 1],
    ]);
  });

  it("two concurrent runDue calls never make the same attempt twice", async () => {
    const { dispatcher, received } = harness();
    dispatcher.emit("form.submitted", {}, [target("a"), target("b")]);
    const [first, second] = await Promise.all([dispatcher.runDue(), dispatcher.runDue()]);
    expect(first).toHaveLength(2);
    expect(second).toEqual([]);
    expect(received).toHaveLength(2);
  });

  it("reset() forgets every delivery, and results of attempts in flight are dropped", async () => {
    let release: (response: Response) => void = () => undefined;
    let called: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (called = resolve));
    const { dispatcher } = harness(() => {
      called();
      return new Promise<Response>((resolve) => (release = resolve));
    });
    dispatcher.emit("form.submitted", {}, [target("a")]);
    const running = dispatcher.runDue();
    await inFlight;
    dispatcher.reset();
    release(new Response(null, { status: 500 }));
    await expect(running).resolves.toEqual([]);
    expect(dispatcher.list()).toEqual([]);
    await expect(dispatcher.runDue()).resolves.toEqual([]);
  });

  it("list() returns copies: changing them changes nothing inside", async () => {
    const { dispatcher } = harness();
    dispatcher.emit("form.submitted", {}, [target("a")]);
    await dispatcher.runDue();
    const [delivery] = dispatcher.list();
    (delivery!.attempts as unknown[]).length = 0;
    expect(dispatcher.list()[0]!.attempts).toHaveLength(1);
  });
});
