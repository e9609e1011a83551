/**
 * Properties of the JSON limits (BEHAVIOUR.md, "Errors"): for any nesting shape and width, a body
 * is stored exactly when every number is finite and no object or array sits deeper than 64
 * levels; otherwise it is a 400 naming the first pointer past the limit or each overflowing number.
 * The same rule holds through `api.state` (a payload built in JavaScript) as over HTTP.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMockApi, MockStateError } from "../../../mock/index.js";
import { toJsonPointer } from "../../../src/schemas/index.js";
import { jsonLimitIssues, MAX_JSON_DEPTH } from "../../../src/schemas/json-limits.js";

const KEY = "pk_test_limits";
const api = createMockApi({ apiKeys: [KEY], seed: 3, now: () => 0 });

const post = (raw: string) =>
  api.fetch(`${api.baseUrl}/v0/prospect_logs`, { method: "POST", headers: { "x-api-key": KEY, "content-type": "application/json" }, body: raw });

type Step = { kind: "object"; key: string } | { kind: "array"; index: number };

/** One step down: into an object member (its key) or an array item (its index among `width` fillers). */
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("object" as const), key: fc.string({ maxLength: 4 }) }),
  fc.record({ kind: fc.constant("array" as const), index: fc.nat({ max: 3 }) }),
);

/** A leaf: a finite double, an overflowing literal, or a string. */
const leaf = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => ({ text: JSON.stringify(n), finite: true })),
  fc.constantFrom("1e400", "-1e400", "1E+309", "-2e308").map((text) => ({ text, finite: false })),
  fc.string({ maxLength: 5 }).map((s) => ({ text: JSON.stringify(s), finite: true })),
);

/** Renders the payload along `steps` (array fillers before the step's index are zeros). */
function render(steps: readonly Step[], value: string): { text: string; path: (string | number)[] } {
  let text = value;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    text = s.kind === "object" ? `{${JSON.stringify(s.key)}:${text}}` : `[${"0,".repeat(s.index)}${text}]`;
  }
  const path = steps.map((s) => (s.kind === "object" ? s.key : s.index));
  return { text, path };
}

describe("JSON limits: property over nesting shapes and leaves", () => {
  it("a body is stored exactly when it keeps the limits; else a 400 at the first pointer past them", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 0, maxLength: 90 }), leaf, async (steps, value) => {
        // payload is {"p": <rendered>}: body level 1, payload 2, its member container 3, ...
        const rendered = render(steps, value.text);
        const response = await post(`{"source":"crm","payload":{"p":${rendered.text}}}`);
        const body = await response.json();
        // The containers below "p" occupy levels 3 .. steps.length + 2.
        const deepest = steps.length + 2;
        if (deepest > MAX_JSON_DEPTH) {
          expect(response.status).toBe(400);
          const pointer = toJsonPointer(["payload", "p", ...rendered.path.slice(0, MAX_JSON_DEPTH - 2)]);
          expect(body.errors).toEqual([expect.objectContaining({ pointer, code: "too_deep" })]);
        } else if (!value.finite) {
          expect(response.status).toBe(400);
          expect(body.errors).toEqual([expect.objectContaining({ pointer: toJsonPointer(["payload", "p", ...rendered.path]), code: "not_finite" })]);
        } else {
          expect(response.status).toBe(201);
          const stored = api.state.prospectLogs.get(body.prospectLogId)!;
          expect(JSON.stringify(stored.payload)).toBe(JSON.stringify(JSON.parse(`{"p":${rendered.text}}`)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("wide bodies: every overflowing number among thousands is named, at most 100", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5000 }), fc.uniqueArray(fc.nat({ max: 4999 }), { maxLength: 150 }), async (width, bad) => {
        const badSet = new Set(bad.filter((i) => i < width));
        const items = Array.from({ length: width }, (_, i) => (badSet.has(i) ? "1e400" : String(i)));
        const response = await post(`{"source":"crm","payload":{"items":[${items.join(",")}]}}`);
        const body = await response.json();
        if (badSet.size === 0) return void expect(response.status).toBe(201);
        expect(response.status).toBe(400);
        const expected = [...badSet]
          .sort((a, b) => a - b)
          .slice(0, 100)
          .map((i) => `/payload/items/${i}`);
        expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("the checker itself never recurses: a value 1,000,000 levels deep is checked", () => {
    let value: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) value = [value];
    expect(jsonLimitIssues(value)).toEqual([expect.objectContaining({ code: "too_deep", path: Array(MAX_JSON_DEPTH).fill(0) })]);
  });
});

describe("JSON limits through api.state: a payload built in JavaScript obeys the same rule", () => {
  const deep = (levels: number) => {
    let payload: Record<string, unknown> = {};
    for (let i = 0; i < levels; i++) payload = { d: payload };
    return payload;
  };

  it.each([
    ["a payload 10,000 levels deep", { payload: deep(10_000) }, `/payload${"/d".repeat(MAX_JSON_DEPTH - 1)}`, "too_deep"],
    ["Infinity", { payload: { n: Number.POSITIVE_INFINITY } }, "/payload/n", "not_finite"],
    ["NaN", { payload: { n: Number.NaN } }, "/payload/n", "not_finite"],
    [
      "a payload that contains itself",
      (() => {
        const tree: Record<string, unknown> = {};
        tree["self"] = tree;
        return { payload: { tree } };
      })(),
      "/payload/tree/self",
      "cycle",
    ],
  ])("state.prospectLogs.create refuses %s at its pointer, and stores nothing", (_, extra, pointer, code) => {
    const before = api.state.snapshot();
    try {
      api.state.prospectLogs.create({ source: "crm", ...extra } as never);
      expect.unreachable("the state API accepted it");
    } catch (error) {
      expect(error).toBeInstanceOf(MockStateError);
      expect((error as MockStateError).errors).toEqual([expect.objectContaining({ pointer, code })]);
    }
    expect(api.state.snapshot()).toBe(before);
  });
});
