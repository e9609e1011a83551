/** docs/contract-check.md lists every contract rule as it is: its ID, class, what it checks and the inputs it needs. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRACT_RULES } from "../../mock/verify/index.js";
import { INPUT_OPTIONS } from "../../mock/verify/rule.js";

const guide = readFileSync(join(import.meta.dirname, "../../docs/contract-check.md"), "utf8");

describe("docs/contract-check.md, the rules table", () => {
  it("has one row per rule, in the order verify runs them, saying what the rule says", () => {
    const rows = [...guide.matchAll(/^\| `([\w.-]+)` \| (spec|mock decision) \| (.+?) \| (.*?) \|$/gm)].map((match) => match.slice(1, 5));
    const needs = (rule: (typeof CONTRACT_RULES)[number]) =>
      (rule.needs ?? []).map((input) => `\`${INPUT_OPTIONS[input].split(" ")[0]}\``).join(", ");
    expect(rows).toEqual(CONTRACT_RULES.map((rule) => [rule.id, rule.class, rule.title, needs(rule)]));
  });
});
