/**
 * The server's webhook sender (`node:http`): a connection per attempt, closed when the attempt
 * ends; the attempt's signal destroys the request before or after the answer's headers, and so
 * does cancelling the body. What the receiver sees is counted in TCP connections.
 */
import { afterEach, describe, expect, it } from "vitest";
import { sendOverHttp } from "../../mock/server/http-sender.js";
import { type Answer, type Receiver, startReceiver, until } from "./support/webhooks.js";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function receiver(answer?: Answer): Promise<Receiver> {
  const started = await startReceiver(answer);
  cleanup.push(() => started.close());
  return started;
}

function attempt(url: string, signal = new AbortController().signal): Promise<Response> {
  const request = new Request(url, {
    method: "POST",
    headers: { "content-type": "application/json", "webhook-id": "event_1" },
    body: '{"a":1}',
    signal,
  });
  return sendOverHttp(request, { signal });
}

describe("sendOverHttp", () => {
  it("sends the method, headers and body, on a connection that closes once the answer is read", async () => {
    const hooks = await receiver((_, response) => response.writeHead(200, { "x-answer": "yes" }).end("ok"));
    for (let i = 0; i < 3; i++) {
      const response = await attempt(`${hooks.url}/in`);
      expect([response.status, response.headers.get("x-answer"), await response.text()]).toEqual([200, "yes", "ok"]);
      await until(() => hooks.connections.now === 0, "the connection closed", 1_000);
    }
    expect(hooks.connections.max).toBe(1);
    expect(hooks.received[0]).toMatchObject({ path: "/in", body: '{"a":1}' });
    expect(hooks.received[0]!.headers).toMatchObject({
      "content-type": "application/json",
      "webhook-id": "event_1",
      "content-length": "7",
      connection: "close",
      "user-agent": expect.stringMatching(/^prospectkit-mock\//),
    });
  });

  it.each([204, 304])("HTTP %i: an answer without a body", async (status) => {
    const hooks = await receiver((_, response) => response.writeHead(status).end());
    const response = await attempt(hooks.url);
    expect([response.status, response.body]).toEqual([status, null]);
  });

  it("the signal aborting before the answer destroys the request: it rejects with the signal's reason, the connection closes", async () => {
    const hooks = await receiver(() => undefined);
    const controller = new AbortController();
    const sent = attempt(hooks.url, controller.signal);
    await until(() => hooks.received.length === 1, "the request arrived");
    const reason = new DOMException("too slow", "TimeoutError");
    controller.abort(reason);
    await expect(sent).rejects.toBe(reason);
    await until(() => hooks.connections.now === 0, "the connection closed", 1_000);
  });

  it.each<[string, (response: Response, controller: AbortController) => void]>([
    ["the signal aborting", (_, controller) => controller.abort()],
    ["cancelling the body", (response) => void response.body!.cancel()],
  ])("%s after the headers closes the connection of a body that never ends", async (_rule, end) => {
    const timers = new Set<NodeJS.Timeout>();
    cleanup.push(async () => timers.forEach(clearInterval));
    const hooks = await receiver((_, response) => {
      response.writeHead(200).write("first");
      const timer = setInterval(() => response.write("."), 10);
      timers.add(timer);
      response.on("close", () => clearInterval(timer));
    });
    const controller = new AbortController();
    const response = await attempt(hooks.url, controller.signal);
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^first/);
    reader.releaseLock();
    end(response, controller);
    await until(() => hooks.connections.now === 0, "the connection closed", 1_000);
  });

  it("a refused connection rejects with its code", async () => {
    const hooks = await receiver();
    const url = hooks.url;
    await hooks.close();
    await expect(attempt(url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  it("an aborted signal sends nothing", async () => {
    const hooks = await receiver();
    await expect(attempt(hooks.url, AbortSignal.abort(new DOMException("stopped", "AbortError")))).rejects.toMatchObject({ name: "AbortError" });
    expect(hooks.received).toEqual([]);
  });
});
