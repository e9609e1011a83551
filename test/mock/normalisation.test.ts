/** How identifiers are compared, and the canonical JSON behind idempotency fingerprints and snapshots. */
import { describe, expect, it } from "vitest";
import { normaliseLinkedinUrl } from "../../mock/index.js";
import { canonicalJson, fingerprint } from "../../mock/lib/canonical-json.js";

describe("LinkedIn URLs are compared without scheme, www., query, fragment and trailing slashes, host lower-cased", () => {
  it.each([
    ["https://www.linkedin.com/in/jane", "linkedin.com/in/jane"],
    ["HTTPS://WWW.LINKEDIN.COM/in/Jane/", "linkedin.com/in/Jane"],
    ["http://linkedin.com/in/jane?trk=1#top", "linkedin.com/in/jane"],
    ["linkedin.com/in/jane///", "linkedin.com/in/jane"],
    ["www.linkedin.com/in/jane", "linkedin.com/in/jane"],
    ["uk.linkedin.com/in/jane", "uk.linkedin.com/in/jane"],
    ["jane", "jane"],
    ["JANE", "jane"],
    ["/in/jane/", "/in/jane"],
    ["?x", ""],
    ["https://", ""],
  ])("%s → %s", (url, key) => {
    expect(normaliseLinkedinUrl(url)).toBe(key);
  });

  it("handles a hostile 1 MiB value (a quadratic regex would not finish within the test timeout)", () => {
    const hostile = `${"/".repeat(1024 * 1024)}x`;
    expect(normaliseLinkedinUrl(hostile)).toBe(hostile);
    expect(normaliseLinkedinUrl("/".repeat(1024 * 1024))).toBe("");
  });
});

describe("canonical JSON", () => {
  it.each([
    [{ b: 1, a: [1, { d: null, c: "x" }] }, '{"a":[1,{"c":"x","d":null}],"b":1}'],
    [{ a: undefined, b: [undefined] }, '{"b":[null]}'],
    [JSON.parse('{"__proto__":{"x":1}}'), '{"__proto__":{"x":1}}'],
    ["ü\n", '"ü\\n"'],
    [[], "[]"],
    [{}, "{}"],
    [Number.NaN, "null"],
  ])("%j → %s", (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });

  it("handles 200,000 levels of nesting without recursion", () => {
    const depth = 200_000;
    const value = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    expect(canonicalJson(value)).toHaveLength(depth * 2);
  });

  it("gives equal fingerprints to values that differ only in key order, and different ones otherwise", () => {
    expect(fingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(fingerprint({ b: { d: 3, c: 2 }, a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
    expect(fingerprint({ a: "1" })).not.toBe(fingerprint({ a: 1 }));
  });

  it("refuses what JSON cannot hold", () => {
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
    expect(() => canonicalJson(1n)).toThrow(TypeError);
  });
});
