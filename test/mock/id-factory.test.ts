/**
 * Rule (BEHAVIOUR.md, "Identifiers"): an ID is a prefix and a lower-case ULID from the mock's
 * seeded stream and clock, IDs only increase, and a taken ID is never handed out. The factory
 * keeps ulid's monotonic algorithm to the letter (so a seed gives the IDs it always gave), and
 * remembers only the reserved IDs it could still make.
 */
import fc from "fast-check";
import { monotonicFactory } from "ulid";
import { describe, expect, it } from "vitest";
import { createIdFactory } from "../../mock/lib/ids.js";
import { createRandom } from "../../mock/lib/random.js";

const T0 = Date.parse("2024-02-29T12:00:00.000Z");

/** A clock walk: mostly the same millisecond, sometimes the next, sometimes a step back or a jump. */
const clockSteps = fc.array(
  fc.oneof(fc.constant(0), fc.constant(0), fc.constant(1), fc.integer({ min: -5, max: -1 }), fc.integer({ min: 2, max: 10_000 })),
  {
    minLength: 1,
    maxLength: 400,
  },
);

describe("createIdFactory", () => {
  it("gives exactly what ulid's monotonicFactory gives for the same seed and clock (same-millisecond increments, steps back, jumps)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), clockSteps, (seed, steps) => {
        const reference = monotonicFactory(createRandom(seed, 0));
        const factory = createIdFactory(createRandom(seed, 0));
        let now = T0;
        for (const step of steps) {
          now += step;
          expect(factory.next("prospectlog", now)).toBe(`prospectlog_${reference(now).toLowerCase()}`);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("increases strictly, also with a frozen clock and a clock that steps back", () => {
    const factory = createIdFactory(createRandom(1, 0));
    const ids = [T0, T0, T0, T0 - 1000, T0 - 1, T0 + 1].map((at) => factory.next("req", at).slice("req_".length));
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!).toBe(true);
  });

  it("carries the increment over every character that was at its last digit", () => {
    // A stream that draws 31 (`z`) for every character: the second ID in that millisecond carries all the way.
    const factory = createIdFactory(() => 31.5 / 32);
    const reference = monotonicFactory(() => 31.5 / 32);
    const first = factory.next("req", T0);
    expect(first).toBe(`req_${reference(T0).toLowerCase()}`);
    expect(first.endsWith("z".repeat(16))).toBe(true);
    // ulid would throw on the overflow; the factory moves on to the next millisecond, so IDs still increase.
    const second = factory.next("req", T0);
    expect(second > first).toBe(true);
    expect(second.slice(4, 14)).toBe(
      createIdFactory(() => 0)
        .next("req", T0 + 1)
        .slice(4, 14),
    );
  });

  it("encodes the epoch itself as 1 ms (ulid would read the real clock for 0)", () => {
    const factory = createIdFactory(createRandom(3, 0));
    expect(factory.next("tenant", 0).slice("tenant_".length, "tenant_".length + 10)).toBe("0000000001");
  });

  it("skips a reserved ID it would have made next", () => {
    const [twin, factory] = [createIdFactory(createRandom(9, 0)), createIdFactory(createRandom(9, 0))];
    twin.next("prospect", T0);
    const predicted = twin.next("prospect", T0);
    factory.next("prospect", T0);
    factory.reserve(predicted);
    const next = factory.next("prospect", T0);
    expect(next).not.toBe(predicted);
    expect(next).toBe(twin.next("prospect", T0));
  });

  it.each([
    ["not a ULID", "prospect_demo"],
    ["upper case", "prospect_01HQ9Z1X2Y3W4V5T6S7R8Q9P0N"],
    ["too short", "prospect_01hq9z1x2y3w4v5t6s7r8q9p0"],
    ["a letter ULIDs never use (u)", "prospect_01hq9z1x2y3w4v5t6s7r8q9puu"],
    ["no prefix at all", "just-text"],
  ])("a reserved ID that is %s changes nothing", (_, id) => {
    const [twin, factory] = [createIdFactory(createRandom(4, 0)), createIdFactory(createRandom(4, 0))];
    factory.reserve(id);
    for (let i = 0; i < 5; i++) expect(factory.next("prospect", T0 + i)).toBe(twin.next("prospect", T0 + i));
  });

  it("remembers no ID it has already passed: what it made itself, and anything that sorts before it", () => {
    const factory = createIdFactory(createRandom(6, 0));
    const made: string[] = [];
    for (let i = 0; i < 1000; i++) made.push(factory.next("prospectlog", T0 + (i >> 4)));
    for (const id of made) factory.reserve(id);
    factory.reserve("prospect_00000000000000000000000000");
    factory.reserve(`prospect_${made[500]!.slice("prospectlog_".length)}`);
    expect(factory.reservations).toBe(0);
  });

  it("remembers an ID ahead of it, whatever its prefix (a later time, or the same time with a larger random part)", () => {
    const factory = createIdFactory(createRandom(6, 0));
    const last = factory.next("prospect", T0).slice("prospect_".length);
    expect(last.endsWith("z")).toBe(false); // seed 6 draws a last character below z
    factory.reserve(`tenant_${last.slice(0, 25)}z`);
    factory.reserve(createIdFactory(createRandom(6, 0)).next("page", T0 + 1));
    expect(factory.reservations).toBe(2);
  });

  it("forgets nothing it could still make: a reservation after many IDs is still honoured", () => {
    const [twin, factory] = [createIdFactory(createRandom(5, 0)), createIdFactory(createRandom(5, 0))];
    for (let i = 0; i < 1000; i++) expect(factory.next("prospectlog", T0)).toBe(twin.next("prospectlog", T0));
    const predicted = twin.next("prospectlog", T0);
    factory.reserve(predicted);
    expect(factory.next("prospectlog", T0)).not.toBe(predicted);
  });
});
