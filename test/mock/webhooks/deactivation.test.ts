import { describe, expect, it } from "vitest";
import { WEBHOOK_DEACTIVATE_AFTER_MS } from "../../../mock/webhooks/index.js";
import { DAY, HOUR, harness, runUntil, SECOND, target } from "./harness.js";

/** An endpoint at /down that always fails, and one at /up that always succeeds. */
const downAndUp = (request: { url: string }) => new Response(null, { status: request.url.endsWith("/down") ? 503 : 204 });

describe("auto-deactivation: a subscription whose attempts have all failed for 5 days", () => {
  it("the period is 5 days", () => {
    expect(WEBHOOK_DEACTIVATE_AFTER_MS).toBe(5 * DAY);
  });

  it.each([
    ["a failure 5 days minus 1 ms after the first failure keeps it active", 5 * DAY - 1, []],
    ["a failure exactly 5 days after the first failure deactivates it", 5 * DAY, ["down"]],
    ["a failure 9 days after the first failure deactivates it", 9 * DAY, ["down"]],
  ])("%s", async (_rule, later, deactivated) => {
    const h = harness(downAndUp);
    h.dispatcher.emit("form.submitted", {}, [target("down")]);
    await h.dispatcher.runDue();
    h.at(later);
    h.dispatcher.emit("form.submitted", {}, [target("down")]);
    await h.dispatcher.runDue();
    expect(h.deactivated).toEqual(deactivated);
  });

  it("deactivation cancels its pending deliveries, and nothing is attempted for it afterwards", async () => {
    const h = harness(downAndUp);
    h.dispatcher.emit("form.submitted", {}, [target("down"), target("up")]);
    await runUntil(h, 4 * DAY);
    h.dispatcher.emit("form.enriched", {}, [target("down"), target("up")]);
    await runUntil(h, 4 * DAY + 21 * HOUR);
    h.dispatcher.emit("page.version.created", {}, [target("down"), target("up")]);

    // The second event's 8th attempt, 27 h 35 min 5 s after day 4, is the first failure past 5 days.
    await runUntil(h, 5 * DAY + 3 * HOUR);
    expect(h.deactivated).toEqual([]);
    await runUntil(h, 5 * DAY + 4 * HOUR);
    expect(h.deactivated).toEqual(["down"]);

    const down = h.dispatcher.list().filter((d) => d.subscriptionId === "down");
    expect(down.map((d) => [d.type, d.status, d.attempts.length])).toEqual([
      ["form.submitted", "failed", 8],
      ["form.enriched", "failed", 8],
      ["page.version.created", "cancelled", 5],
    ]);
    expect(down.every((d) => d.nextAttemptAt === null)).toBe(true);

    const sent = h.received.length;
    await runUntil(h, 60 * DAY);
    expect(h.received).toHaveLength(sent);
    expect(h.deactivated).toEqual(["down"]);
  });

  it("attempts made in the same run as the deciding failure are recorded, their deliveries cancelled", async () => {
    const h = harness(() => new Response(null, { status: 500 }));
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    await h.dispatcher.runDue();
    h.at(5 * DAY);
    h.dispatcher.emit("form.enriched", {}, [target("s")]);
    h.dispatcher.emit("form.enrichment_failed", {}, [target("s")]);
    await expect(h.dispatcher.runDue()).resolves.toHaveLength(3);
    expect(h.deactivated).toEqual(["s"]);
    expect(h.dispatcher.list().map((d) => [d.status, d.attempts.length])).toEqual([
      ["cancelled", 2],
      ["cancelled", 1],
      ["cancelled", 1],
    ]);
  });

  it("other subscriptions are not affected", async () => {
    const h = harness(downAndUp);
    for (const day of [0, 2, 4, 6]) {
      await runUntil(h, day * DAY);
      h.dispatcher.emit("form.submitted", {}, [target("down"), target("up")]);
    }
    await runUntil(h, 10 * DAY);
    expect(h.deactivated).toEqual(["down"]);
    const up = h.dispatcher.list().filter((d) => d.subscriptionId === "up");
    expect(up.map((d) => d.status)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
  });

  it("a success in between starts the 5 days afresh", async () => {
    let healthy = false;
    const h = harness(() => new Response(null, { status: healthy ? 200 : 500 }));
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    await h.dispatcher.runDue(); // fails at day 0
    h.at(3 * DAY);
    healthy = true;
    await h.dispatcher.runDue(); // the retry succeeds at day 3
    healthy = false;
    for (const day of [6, 7, 8]) {
      h.at(day * DAY);
      h.dispatcher.emit("form.submitted", {}, [target("s")]);
      await h.dispatcher.runDue();
    }
    expect(h.deactivated).toEqual([]); // failing since day 6 only
    h.at(11 * DAY);
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    await h.dispatcher.runDue();
    expect(h.deactivated).toEqual(["s"]);
  });

  it("the 5 days count from the first failure, even with no attempt for days in between", async () => {
    const h = harness(() => new Response(null, { status: 500 }));
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    await h.dispatcher.runDue();
    h.at(6 * DAY);
    await h.dispatcher.runDue(); // the retry, due at 5 s, made on day 6
    expect(h.deactivated).toEqual(["s"]);
  });

  it("a subscription activated again (active: true) gets deliveries and a fresh 5-day period", async () => {
    const h = harness(() => new Response(null, { status: 500 }));
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    await h.dispatcher.runDue();
    h.at(5 * DAY);
    await h.dispatcher.runDue();
    expect(h.deactivated).toEqual(["s"]);
    h.at(5 * DAY + HOUR);
    h.dispatcher.emit("form.submitted", {}, [target("s", { active: true })]);
    await h.dispatcher.runDue();
    await runUntil(h, 10 * DAY + HOUR - SECOND);
    expect(h.deactivated).toEqual(["s"]);
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    h.at(10 * DAY + HOUR);
    await h.dispatcher.runDue();
    expect(h.deactivated).toEqual(["s", "s"]);
  });

  it("without onDeactivate the deliveries are still cancelled", async () => {
    const h = harness(() => new Response(null, { status: 500 }), { onDeactivate: undefined });
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    await h.dispatcher.runDue();
    h.at(5 * DAY);
    h.dispatcher.emit("form.submitted", {}, [target("s")]);
    await h.dispatcher.runDue();
    expect(h.dispatcher.list().map((d) => d.status)).toEqual(["cancelled", "cancelled"]);
    expect(h.deactivated).toEqual([]);
  });
});
