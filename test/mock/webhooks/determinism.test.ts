import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_KINDS } from "../../../src/index.js";
import { DAY, HOUR, harness, runUntil, target } from "./harness.js";

/** A busy week: every kind, three subscriptions, an endpoint that fails on a fixed pattern. */
async function scenario() {
  const h = harness((_, n) =>
    n % 7 === 3 ? Promise.reject(new TypeError("connection reset")) : new Response(null, { status: n % 3 === 0 ? 200 : 502 }),
  );
  const targets = [target("a"), target("b", { events: ["form.submitted", "form.enriched"] }), target("c", { url: "https://other.example/c" })];
  for (let hour = 0; hour < 7 * 24; hour += 5) {
    await runUntil(h, hour * HOUR);
    const kind = WEBHOOK_EVENT_KINDS[hour % WEBHOOK_EVENT_KINDS.length]!;
    h.dispatcher.emit(kind, { hour, nested: { list: [hour, "x"] } }, targets);
  }
  await runUntil(h, 10 * DAY);
  return { deliveries: h.dispatcher.list(), received: h.received, deactivated: h.deactivated };
}

describe("determinism: everything comes from the injected clock and ID source", () => {
  it("the same scenario twice gives the same deliveries, attempts, requests and signatures", async () => {
    const first = await scenario();
    const second = await scenario();
    expect(first.deliveries.length).toBeGreaterThan(50);
    expect(first.received.length).toBeGreaterThan(first.deliveries.length);
    expect(second).toEqual(first);
  });

  const sources = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => join(dir, f));

  it.each([
    ["Math.random", /Math\.random/],
    ["Date.now", /Date\.now/],
    ["new Date() without an argument", /new Date\(\s*\)/],
    ["setTimeout or setInterval", /set(Timeout|Interval)\(/],
  ])("mock/webhooks never uses %s", (_rule, pattern) => {
    for (const file of sources("mock/webhooks")) expect(readFileSync(file, "utf8"), file).not.toMatch(pattern);
  });

  it.each([["src/webhooks"], ["mock/webhooks"]])("%s imports no node: module (runtime-agnostic)", (dir) => {
    for (const file of sources(dir)) expect(readFileSync(file, "utf8"), file).not.toMatch(/from\s+["']node:/);
  });
});
