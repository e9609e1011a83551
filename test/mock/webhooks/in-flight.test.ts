/**
 * What an attempt holds while it runs, and how many run: each attempt owns one abort signal that
 * the sender receives and that aborts when the attempt times out, ends, is reset or is stopped;
 * one concurrency limit covers scheduled attempts and redeliveries, the excess waiting its turn.
 */
import { describe, expect, it } from "vitest";
import type { WebhookFetch } from "../../../mock/webhooks/index.js";
import { harness, target } from "./harness.js";

/** A sender that records each call and its signal, and answers only when told to. */
function heldNetwork() {
  const calls: { url: string; signal: AbortSignal; answer: (response: Response) => void }[] = [];
  const fetch: WebhookFetch = (request, init) =>
    new Promise<Response>((answer) => {
      calls.push({ url: request.url, signal: init!.signal, answer });
    });
  return { calls, fetch };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the sender has been called `count` times (signing takes a moment), then a while longer: no more calls come. */
async function calledTimes(network: ReturnType<typeof heldNetwork>, count: number): Promise<void> {
  for (let waited = 0; network.calls.length < count && waited < 2_000; waited += 5) await sleep(5);
  await sleep(20);
  expect(network.calls).toHaveLength(count);
}

describe("one concurrency limit for scheduled attempts and redeliveries; the excess waits its turn", () => {
  it("runDue starts as many as the limit allows, the others start as attempts end, in the order they waited", async () => {
    const network = heldNetwork();
    const { dispatcher } = harness(undefined, { fetch: network.fetch, concurrency: 2 });
    for (const id of ["a", "b", "c", "d"]) dispatcher.emit("form.submitted", {}, [target(id)]);
    const run = dispatcher.runDue();
    await calledTimes(network, 2);
    expect(network.calls.map((call) => call.url.split("/").pop())).toEqual(["a", "b"]);
    expect(dispatcher.inFlight()).toBe(2);
    network.calls[1]!.answer(new Response(null, { status: 204 }));
    await calledTimes(network, 3);
    expect(network.calls.map((call) => call.url.split("/").pop())).toEqual(["a", "b", "c"]);
    expect(dispatcher.inFlight()).toBe(2);
    network.calls[0]!.answer(new Response(null, { status: 204 }));
    await calledTimes(network, 4);
    network.calls[2]!.answer(new Response(null, { status: 204 }));
    network.calls[3]!.answer(new Response(null, { status: 204 }));
    const attempts = await run;
    expect(attempts.map((attempt) => [attempt.subscriptionId, attempt.ok])).toEqual([
      ["a", true],
      ["b", true],
      ["c", true],
      ["d", true],
    ]);
    expect(dispatcher.inFlight()).toBe(0);
  });

  it("redeliveries wait behind scheduled attempts for the same slots, and a second runDue never takes a waiting delivery", async () => {
    const network = heldNetwork();
    const { dispatcher } = harness(undefined, { fetch: network.fetch, concurrency: 1 });
    const event = dispatcher.emit("form.submitted", {}, [target("a"), target("b")]);
    const run = dispatcher.runDue();
    const again = dispatcher.runDue();
    const redelivered = dispatcher.redeliver(event.id);
    await calledTimes(network, 1);
    for (let i = 0; i < 4; i++) {
      expect(dispatcher.inFlight()).toBe(1);
      network.calls[i]!.answer(new Response(null, { status: 204 }));
      await calledTimes(network, Math.min(i + 2, 4));
    }
    expect(dispatcher.inFlight()).toBe(0);
    expect(network.calls.map((call) => call.url.split("/").pop())).toEqual(["a", "b", "a", "b"]);
    expect((await run).map((attempt) => [attempt.subscriptionId, attempt.redelivery])).toEqual([
      ["a", false],
      ["b", false],
    ]);
    await expect(again).resolves.toEqual([]);
    expect((await redelivered).map((attempt) => [attempt.subscriptionId, attempt.redelivery])).toEqual([
      ["a", true],
      ["b", true],
    ]);
  });
});

describe("each attempt owns its abort signal, and the sender gets it", () => {
  it("it aborts at the timeout (the attempt records a timeout), and the next attempt starts only then", async () => {
    const network = heldNetwork();
    const { dispatcher } = harness(undefined, { fetch: network.fetch, concurrency: 1, timeoutMs: 30 });
    dispatcher.emit("form.submitted", {}, [target("a"), target("b")]);
    const run = dispatcher.runDue();
    while (network.calls.length < 1) await sleep(1);
    const [first] = network.calls;
    expect(first!.signal.aborted).toBe(false);
    expect(network.calls).toHaveLength(1);
    await calledTimes(network, 2);
    expect(first!.signal.aborted).toBe(true);
    expect(first!.signal.reason).toMatchObject({ name: "TimeoutError" });
    await expect(run).resolves.toMatchObject([
      { subscriptionId: "a", reason: "timeout", error: "timeout after 30 ms" },
      { subscriptionId: "b", reason: "timeout" },
    ]);
  });

  it("it aborts when the attempt ends after an answer, so the sender releases the connection", async () => {
    const network = heldNetwork();
    const { dispatcher } = harness(undefined, { fetch: network.fetch });
    dispatcher.emit("form.submitted", {}, [target("a")]);
    const run = dispatcher.runDue();
    await calledTimes(network, 1);
    network.calls[0]!.answer(new Response("ok", { status: 200 }));
    await expect(run).resolves.toMatchObject([{ ok: true, response: "ok" }]);
    expect(network.calls[0]!.signal.aborted).toBe(true);
  });

  it("a body that trickles past the timeout: the read is cancelled at the timeout, what arrived is kept", async () => {
    let cancelled: unknown;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode("first bytes")),
      cancel: (reason) => void (cancelled = reason ?? "cancelled"),
    });
    const { dispatcher } = harness(() => new Response(body, { status: 200 }), { timeoutMs: 30 });
    dispatcher.emit("form.submitted", {}, [target("a")]);
    await expect(dispatcher.runDue()).resolves.toMatchObject([{ ok: true, status: 200, response: "first bytes" }]);
    expect(cancelled).toBeDefined();
  });

  it("reset() aborts the attempts in flight and drops the waiting ones: none of them is recorded or sent", async () => {
    const network = heldNetwork();
    const { dispatcher } = harness(undefined, { fetch: network.fetch, concurrency: 1 });
    dispatcher.emit("form.submitted", {}, [target("a"), target("b")]);
    const run = dispatcher.runDue();
    await calledTimes(network, 1);
    dispatcher.reset();
    expect(network.calls[0]!.signal.aborted).toBe(true);
    await expect(run).resolves.toEqual([]);
    expect(dispatcher.inFlight()).toBe(0);
    expect(network.calls).toHaveLength(1);
    expect(dispatcher.list()).toEqual([]);
  });

  it("the signal option stops delivery for good: in flight aborted and not recorded, waiting dropped, nothing starts later", async () => {
    const network = heldNetwork();
    const stop = new AbortController();
    const { dispatcher } = harness(undefined, { fetch: network.fetch, concurrency: 1, signal: stop.signal });
    dispatcher.emit("form.submitted", {}, [target("a"), target("b")]);
    const run = dispatcher.runDue();
    await calledTimes(network, 1);
    stop.abort();
    expect(network.calls[0]!.signal.aborted).toBe(true);
    await expect(run).resolves.toEqual([]);
    expect(dispatcher.list().map((delivery) => [delivery.status, delivery.attempts.length])).toEqual([
      ["pending", 0],
      ["pending", 0],
    ]);
    await expect(dispatcher.runDue({ all: true })).resolves.toEqual([]);
    await expect(dispatcher.redeliver(dispatcher.list()[0]!.eventId)).resolves.toEqual([]);
    expect(network.calls).toHaveLength(1);
  });
});
