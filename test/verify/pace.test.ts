/**
 * `--rate N`: at most N requests reach the deployment in any one-second window (a rate below 1:
 * one request per 1/N seconds; a rate that is not whole: its whole part), however late the network
 * delivers a request or a timer fires, and never a burst: each request is sent at least 1000/N ms
 * after the one before. On a fake clock (timers and `performance.now`), a `fetch` that records
 * when each request is sent and when it reaches the deployment, after the row's delays.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createHttpContext } from "../../mock/verify/http-context.js";

interface Row {
  readonly name: string;
  readonly rate: number;
  /** How long request `i` takes to reach the deployment, and its answer to come back. */
  readonly arrive?: (i: number) => number;
  readonly answer?: (i: number) => number;
  /** How late the pace's timer `i` fires (the event loop was busy). */
  readonly late?: (i: number) => number;
}

const ROWS: readonly Row[] = [
  // The probe's case: the first request arrived 60 ms late, the next ten on time: 11 in 940 ms on the old pace.
  { name: "the first request reaches the deployment 60 ms late", rate: 10, arrive: (i) => (i === 0 ? 60 : 0) },
  { name: "every seventh request reaches it 90 ms late", rate: 10, arrive: (i) => (i % 7 === 0 ? 90 : 0) },
  { name: "slow answers (40 ms) and a late arrival", rate: 10, arrive: (i) => (i === 3 ? 35 : 0), answer: () => 40 },
  { name: "a timer fires 250 ms late (a busy event loop): no catch-up burst", rate: 10, late: (i) => (i === 4 ? 250 : 0) },
  { name: "--rate 5, the first request 150 ms late", rate: 5, arrive: (i) => (i === 0 ? 150 : 0) },
  { name: "--rate 2.5: at most 2 in any second", rate: 2.5 },
  { name: "--rate 0.5: one in any 2 seconds, the first 100 ms late", rate: 0.5, arrive: (i) => (i === 0 ? 100 : 0) },
  { name: "--rate 50, each answer 5 ms", rate: 50, answer: () => 5, arrive: (i) => (i % 9 === 0 ? 12 : 0) },
];

afterEach(() => {
  vi.useRealTimers();
});

async function paced({ rate, arrive = () => 0, answer = () => 0, late = () => 0 }: Row, count: number) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  const fakeTimeout = globalThis.setTimeout;
  const wait = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => fakeTimeout(resolve, ms)) : Promise.resolve());
  // The pace's timers (the only other setTimeout) fire late as the row says.
  let timers = 0;
  vi.stubGlobal("setTimeout", ((callback: () => void, ms?: number) => fakeTimeout(callback, (ms ?? 0) + late(timers++))) as typeof setTimeout);
  const sent: number[] = [];
  const arrived: number[] = [];
  const fetch = async () => {
    const i = sent.push(performance.now()) - 1;
    await wait(arrive(i));
    arrived.push(performance.now());
    await wait(answer(i));
    return new Response("{}", { status: 404, headers: { "content-type": "application/json" } });
  };
  const context = createHttpContext({ baseUrl: "https://deployment.example.test", apiKey: "pk_pace_0123456789", maxRequests: count, rate, fetch });
  let done = false;
  const run = (async () => {
    for (let i = 0; i < count; i++) await context.send("GET", "/v0/pace");
    done = true;
  })();
  while (!done) {
    await vi.advanceTimersByTimeAsync(1);
    // Let what is not on the fake clock (reading an answer's body) settle.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await run;
  vi.unstubAllGlobals();
  return { sent, arrived };
}

describe("the pace: at most N requests in any one-second window", () => {
  it.each(ROWS)(
    "$name",
    async (row) => {
      const count = Math.max(12, Math.ceil(row.rate * 3));
      const { sent, arrived } = await paced(row, count);
      expect(arrived).toHaveLength(count);
      // At most `slots` arrivals in any window [t, t + window): any slots + 1 of them span at least the window.
      const slots = Math.max(1, Math.floor(row.rate));
      const window = row.rate >= 1 ? 1000 : 1000 / row.rate;
      const crowded = arrived.flatMap((at, i) =>
        i + slots < arrived.length && arrived[i + slots]! - at < window ? [[i, arrived[i + slots]! - at]] : [],
      );
      expect(crowded, `${slots + 1} requests within less than ${window} ms`).toEqual([]);
      // Never a burst: each request is sent at least 1000 / rate ms after the one before.
      const gaps = sent.slice(1).map((at, i) => at - sent[i]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / row.rate - 1);
    },
    60_000,
  );
});
