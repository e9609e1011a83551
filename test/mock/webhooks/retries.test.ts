import { describe, expect, it } from "vitest";
import { WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_MS } from "../../../mock/webhooks/index.js";
import { DAY, HOUR, harness, MINUTE, SECOND, START, target } from "./harness.js";

const iso = (ms: number) => new Date(START + ms).toISOString();
const failing = () => new Response(null, { status: 500 });

/** The schedule of BEHAVIOUR.md, written out here rather than read from the code under test. */
const DELAYS: [string, number][] = [
  ["5 s", 5 * SECOND],
  ["5 min", 5 * MINUTE],
  ["30 min", 30 * MINUTE],
  ["2 h", 2 * HOUR],
  ["5 h", 5 * HOUR],
  ["10 h", 10 * HOUR],
  ["10 h", 10 * HOUR],
];
/** When attempt n + 1 is made, in ms after the event, for an endpoint that always fails. */
const ATTEMPT_TIMES = DELAYS.reduce((times, [, delay]) => [...times, times.at(-1)! + delay], [0]);

describe("retry schedule after a failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts)", () => {
  it("the exported constants are that schedule", () => {
    expect(WEBHOOK_RETRY_DELAYS_MS).toEqual(DELAYS.map(([, delay]) => delay));
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(8);
  });

  it.each(DELAYS.map(([label, delay], i) => [i + 2, label, i + 1, delay, ATTEMPT_TIMES[i + 1]!] as const))(
    "attempt %i comes %s after attempt %i failed, not a millisecond earlier",
    async (attempt, _label, _previous, _delay, time) => {
      const h = harness(failing);
      h.dispatcher.emit("form.submitted", {}, [target("s")]);
      for (const earlier of ATTEMPT_TIMES.slice(0, attempt - 1)) {
        h.at(earlier);
        await h.dispatcher.runDue();
      }
      h.at(time - 1);
      await expect(h.dispatcher.runDue()).resolves.toEqual([]);
      h.at(time);
      await expect(h.dispatcher.runDue()).resolves.toMatchObject([{ attempt, at: iso(time), ok: false }]);
    },
  );

  it("after the 8th failure the delivery is failed and nothing more is ever attempted", async () => {
    const h = harness(failing);
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    for (const time of ATTEMPT_TIMES) {
      h.at(time);
      await h.dispatcher.runDue();
    }
    expect(ATTEMPT_TIMES.at(-1)).toBe(27 * HOUR + 35 * MINUTE + 5 * SECOND);
    const [delivery] = h.dispatcher.list();
    expect(delivery).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(delivery!.attempts.map((a) => a.at)).toEqual(ATTEMPT_TIMES.map(iso));
    h.at(ATTEMPT_TIMES.at(-1)! + 30 * DAY);
    await expect(h.dispatcher.runDue()).resolves.toEqual([]);
    expect(h.received).toHaveLength(8);
  });

  it("a retry is timed from when the previous attempt was actually made", async () => {
    const h = harness(failing);
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    h.at(HOUR); // the first attempt is made late
    await h.dispatcher.runDue();
    expect(h.dispatcher.list()[0]!.nextAttemptAt).toBe(iso(HOUR + 5 * SECOND));
  });

  it("one runDue makes one attempt per due delivery, however far the clock jumped", async () => {
    const h = harness(failing);
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    h.at(10 * DAY);
    await expect(h.dispatcher.runDue()).resolves.toHaveLength(1);
  });

  it.each([1, 2, 5, 8])("success on attempt %i stops the retries", async (successful) => {
    const h = harness((_, n) => new Response(null, { status: n + 1 < successful ? 500 : 200 }));
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    for (const time of ATTEMPT_TIMES) {
      h.at(time);
      await h.dispatcher.runDue();
    }
    const [delivery] = h.dispatcher.list();
    expect(delivery).toMatchObject({ status: "succeeded", nextAttemptAt: null });
    expect(delivery!.attempts.map((a) => a.ok)).toEqual([...Array<boolean>(successful - 1).fill(false), true]);
    expect(h.received).toHaveLength(successful);
  });

  it("each delivery keeps its own schedule", async () => {
    const h = harness(failing);
    h.dispatcher.emit("form.submitted", {}, [target("a")]);
    await h.dispatcher.runDue();
    h.at(MINUTE);
    h.dispatcher.emit("form.enriched", {}, [target("a")]);
    await h.dispatcher.runDue(); // the second event's first attempt, and the first event's retry (due at 5 s)
    expect(h.dispatcher.list().map((d) => d.nextAttemptAt)).toEqual([iso(MINUTE + 5 * MINUTE), iso(MINUTE + 5 * SECOND)]);
  });
});
