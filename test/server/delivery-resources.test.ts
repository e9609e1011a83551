/**
 * What a long-running `prospectkit-mock` spends on webhook delivery, over the CLI with a garbage
 * collection every 50 ms (`--expose-gc` and a preload): every attempt releases its socket when it
 * ends, also when only a weak reference held what would abort it; one in-flight cap (8) holds for
 * scheduled deliveries, "run due now" and redeliveries alike, the excess waiting its turn; and
 * SIGTERM exits within 2 s whatever hangs. The receiver counts TCP connections, idle ones too.
 */
import type { ServerResponse } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, type CliProcess, startCli } from "./support/cli-process.js";
import { call, type Receiver, startReceiver, until } from "./support/webhooks.js";

const KEY = "key_resources";
const CAP = 8;
/** Node with a forced full garbage collection every 50 ms, running the built CLI. */
const GC_NODE = [process.execPath, "--expose-gc", "--import", pathToFileURL(resolve(import.meta.dirname, "support/force-gc.mjs")).href, CLI];
/** The rule: SIGTERM ends the process within 2 s, whatever is in flight or hanging. */
const EXIT_WITHIN_MS = 2_000;
/** The rule: no connection outlives its attempt by more than a second. */
const RELEASED_WITHIN_MS = 1_000;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const started = await startReceiver(answer);
  cleanup.push(() => started.close());
  return started;
}

/** The CLI under forced GC, with no demo data and one subscription (form events only) pointing at `url`. */
async function cli(url: string, args: readonly string[]): Promise<CliProcess> {
  const started = await startCli(["--port", "0", "--quiet", "--no-demo", "--api-key", KEY, ...args], { command: GC_NODE });
  cleanup.push(() => started.stop("SIGKILL"));
  const created = await call(started.url, KEY, "POST", "/__mock/webhook_subscriptions", { url, events: ["form.submitted"] });
  expect(created.status).toBe(201);
  return started;
}

async function emit(base: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    expect((await call(base, KEY, "POST", "/__mock/webhook_events", { kind: "form.submitted", data: { i } })).status).toBe(201);
  }
}

const attempts = async (base: string) =>
  (
    (await call(base, KEY, "GET", "/__mock/webhook_deliveries")).body.data as { attempts: { reason: string | null; status: number | null }[] }[]
  ).flatMap((delivery) => delivery.attempts);

/** Waits until the server has recorded `count` attempts, and returns them. */
const attemptsMade = (base: string, count: number, ms: number) =>
  until(
    async () => {
      const list = await attempts(base);
      return list.length >= count && list;
    },
    `${count} attempts`,
    ms,
  );

/** Sends SIGTERM and resolves with how long the process took to exit, in milliseconds. */
async function terminate(running: CliProcess): Promise<{ code: number | null; ms: number }> {
  const started = performance.now();
  const code = await running.stop("SIGTERM");
  return { code, ms: performance.now() - started };
}

describe("every attempt releases its socket when it ends, also after garbage collection", () => {
  it("200 attempts time out at a receiver that never answers: never more than 8 sockets open, then 0; SIGTERM exits within 2 s", async () => {
    const hooks = await receiver(() => undefined);
    // 100 ms per attempt; a retry schedule 100 times slower than real time, so no retry comes in 8 minutes: exactly 200 attempts.
    const mock = await cli(`${hooks.url}/void`, ["--webhook-timeout", "100", "--webhook-time-scale", "0.01"]);
    await emit(mock.url, 200);
    const made = await attemptsMade(mock.url, 200, 60_000);
    expect(made).toHaveLength(200);
    expect(made.filter((attempt) => attempt.reason !== "timeout")).toEqual([]);
    await until(() => hooks.connections.now === 0, "every connection closed", RELEASED_WITHIN_MS);
    expect(hooks.connections.max, "the in-flight cap, counted in sockets").toBeLessThanOrEqual(CAP);
    const exit = await terminate(mock);
    expect(exit.code).toBe(0);
    expect(exit.ms, "SIGTERM to exit, ms").toBeLessThan(EXIT_WITHIN_MS);
  }, 90_000);

  it("a 200 whose body trickles forever: the attempt ends at its timeout and its socket closes with it", async () => {
    const timers = new Set<NodeJS.Timeout>();
    cleanup.push(async () => timers.forEach(clearInterval));
    const hooks = await receiver((_, response) => {
      response.writeHead(200, { "content-type": "text/plain" }).write("."); // the status line goes out at once
      const timer = setInterval(() => response.write("."), 20);
      timers.add(timer);
      response.on("close", () => (clearInterval(timer), timers.delete(timer)));
    });
    const mock = await cli(`${hooks.url}/trickle`, ["--webhook-timeout", "1000"]);
    await emit(mock.url, 24);
    const made = await attemptsMade(mock.url, 24, 30_000);
    expect(made.filter((attempt) => attempt.status !== 200)).toEqual([]);
    await until(() => hooks.connections.now === 0, "every connection closed", RELEASED_WITHIN_MS);
    expect(hooks.connections.max, "the in-flight cap, counted in sockets").toBeLessThanOrEqual(CAP);
    expect((await terminate(mock)).ms, "SIGTERM to exit, ms").toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);

  it("SIGTERM with 8 attempts hanging and more waiting: the process exits within 2 s and the receiver's connections close", async () => {
    const hooks = await receiver(() => undefined);
    const mock = await cli(`${hooks.url}/void`, ["--webhook-timeout", "60000"]);
    await emit(mock.url, 20);
    await until(() => hooks.connections.now === CAP, "the cap's attempts hanging");
    await new Promise((done) => setTimeout(done, 200)); // a few collections while they hang
    const exit = await terminate(mock);
    expect(exit.code).toBe(0);
    expect(exit.ms, "SIGTERM to exit, ms").toBeLessThan(EXIT_WITHIN_MS);
    expect(mock.stdout()).toContain("prospectkit-mock stopped");
    await until(() => hooks.connections.now === 0, "the receiver's connections closed", RELEASED_WITHIN_MS);
    expect(hooks.connections.max).toBe(CAP);
  }, 30_000);
});

describe("one in-flight cap (8) for every kind of attempt; the excess waits its turn", () => {
  /**
   * A receiver that holds every request until told to answer, and a test that lets `total`
   * attempts through in waves: each wave fills to the cap, nobody else gets in while it is held,
   * then it is answered and the next one comes.
   */
  async function gate() {
    const held: ServerResponse[] = [];
    const hooks = await receiver((_, response) => void held.push(response));
    const waves = async (total: number) => {
      for (let through = 0; through < total; ) {
        const wave = Math.min(CAP, total - through);
        await until(() => hooks.received.length >= through + wave, `attempts ${through + 1} to ${through + wave}`);
        await new Promise((done) => setTimeout(done, 250)); // a while with the wave held: nothing beyond the cap comes
        expect(hooks.received, "attempts in flight at once").toHaveLength(through + wave);
        expect(hooks.connections.now).toBe(wave);
        for (const response of held.splice(0)) response.writeHead(204).end();
        through += wave;
      }
      await until(() => hooks.connections.now === 0, "every connection closed", RELEASED_WITHIN_MS);
      expect(hooks.connections.max).toBe(CAP);
    };
    return { hooks, waves };
  }

  it("20 parallel redeliveries: all 20 made, never more than 8 at once", async () => {
    const { hooks, waves } = await gate();
    const mock = await cli(`${hooks.url}/held`, ["--no-webhooks"]);
    await emit(mock.url, 1);
    const [event] = (await call(mock.url, KEY, "GET", "/__mock/webhook_events")).body.data;
    const answers = Promise.all(Array.from({ length: 20 }, () => call(mock.url, KEY, "POST", `/__mock/webhook_events/${event.id}/redeliver`)));
    answers.catch(() => undefined); // if a wave fails, the test says why, not the requests the CLI's end cut
    await waves(20);
    expect((await answers).map((answer) => [answer.status, answer.body.data[0].status])).toEqual(Array(20).fill([200, 204]));
  }, 30_000);

  it('"run due now" with 20 deliveries pending: all 20 attempted in one call, never more than 8 at once', async () => {
    const { hooks, waves } = await gate();
    const mock = await cli(`${hooks.url}/held`, ["--no-webhooks"]);
    await emit(mock.url, 20);
    const run = call(mock.url, KEY, "POST", "/__mock/webhook_deliveries/run");
    run.catch(() => undefined);
    await waves(20);
    expect((await run).status).toBe(200);
    expect((await run).body.data).toHaveLength(20);
  }, 30_000);

  it("redeliveries wait in the same line as scheduled attempts", async () => {
    const { hooks, waves } = await gate();
    const mock = await cli(`${hooks.url}/held`, []);
    await emit(mock.url, 12);
    const [event] = (await call(mock.url, KEY, "GET", "/__mock/webhook_events")).body.data;
    const redeliveries = Promise.all(Array.from({ length: 8 }, () => call(mock.url, KEY, "POST", `/__mock/webhook_events/${event.id}/redeliver`)));
    redeliveries.catch(() => undefined);
    await waves(20);
    expect((await redeliveries).map((answer) => answer.status)).toEqual(Array(8).fill(200));
  }, 30_000);
});
