/**
 * docs/contract-check.md holds to the rules: its rules table lists every contract rule as it is;
 * its coverage tables name every rule and only rules, give each rule of the spec (every field of
 * 2.1 to 2.4, each section) and each decision of docs/behaviour.md a rule or a reason; and what it
 * says of a run (the requests, the time at the default pace, the budget, the mutants) is measured.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CONTRACT_RULES, DEFAULT_MAX_REQUESTS, DEFAULT_RATE, formatReport, reportJson } from "../../mock/verify/index.js";
import { INPUT_OPTIONS } from "../../mock/verify/rule.js";
import { runVerify } from "../../mock/verify/run.js";
import { Page, ProspectLog, ProspectLogCreate, PublishedVersion, WebhookSubscription } from "../../src/schemas/index.js";
import { deploymentFetch, deploymentMock, INPUTS, KEYS } from "./support/deployments.js";
import { MUTANTS } from "./support/mutants/index.js";

const guide = readFileSync(join(import.meta.dirname, "../../docs/contract-check.md"), "utf8");
const behaviour = readFileSync(join(import.meta.dirname, "../../docs/behaviour.md"), "utf8");

/** The rows of the table under `heading` (up to the next heading), as cells. */
function table(heading: string): string[][] {
  const start = guide.indexOf(`\n${heading}\n`);
  expect(start, `${heading} in docs/contract-check.md`).toBeGreaterThan(-1);
  const section = guide.slice(start + heading.length + 2).split(/\n#{2,3} /)[0]!;
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("|---"))
    .slice(1)
    .map((line) => line.slice(2, -2).split(" | "));
}

const SPEC = table("### The spec");
const DECISIONS = table("### docs/behaviour.md");
const RULE_IDS = new Set(CONTRACT_RULES.map((rule) => rule.id));
const PREFIXES = new Set(CONTRACT_RULES.map((rule) => rule.id.split(".")[0]!));

/** The rule IDs a cell names (backticked words that look like one). */
const namedRules = (cell: string) =>
  [...cell.matchAll(/`([a-z0-9]+\.[\w.-]+)`/g)].map((match) => match[1]!).filter((id) => PREFIXES.has(id.split(".")[0]!));

/** Text without Markdown marks and punctuation, in lower case, as words. */
const words = (text: string) =>
  text
    .replace(/[`*]/g, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean);

/** The fields of a Zod object schema. */
const fieldsOf = (schema: unknown) => Object.keys((schema as { _zod: { def: { shape: object } } })._zod.def.shape);

describe("docs/contract-check.md, the rules table", () => {
  it("has one row per rule, in the order verify runs them, saying what the rule says", () => {
    const rows = [...guide.matchAll(/^\| `([\w.-]+)` \| (spec|mock decision) \| (.+?) \| (.*?) \|$/gm)].map((match) => match.slice(1, 5));
    const needs = (rule: (typeof CONTRACT_RULES)[number]) =>
      (rule.needs ?? []).map((input) => `\`${INPUT_OPTIONS[input].split(" ")[0]}\``).join(", ");
    expect(rows).toEqual(CONTRACT_RULES.map((rule) => [rule.id, rule.class, rule.title, needs(rule)]));
  });
});

describe("docs/contract-check.md, what the rules cover", () => {
  const rows = [...SPEC, ...DECISIONS];

  it("names every rule, and only rules that exist", () => {
    const named = new Set(rows.flatMap((row) => namedRules(row[2]!)));
    expect([...RULE_IDS].filter((id) => !named.has(id))).toEqual([]);
    expect([...named].filter((id) => !RULE_IDS.has(id))).toEqual([]);
  });

  it("gives every row a rule or a reason", () => {
    expect(rows.filter((row) => row.length !== 3)).toEqual([]);
    expect(rows.filter(([, , checked]) => namedRules(checked!).length === 0 && !/^Not (checkable|checked|a rule)\b.*\S/.test(checked!))).toEqual([]);
  });

  it.each([
    ["2.1", ProspectLogCreate],
    ["2.2", ProspectLog],
    ["2.3", Page],
    ["2.3", PublishedVersion],
    ["2.4", WebhookSubscription],
  ] as const)("has a row for every field of spec %s", (section, schema) => {
    const listed = SPEC.map(([where]) => where).filter((where) => where!.startsWith(`${section} \``));
    expect(fieldsOf(schema).filter((field) => !listed.includes(`${section} \`${field}\``))).toEqual([]);
  });

  it("has rows for every section of the spec, 1 to 9, and every bound of section 8", () => {
    const sections = new Set(SPEC.map(([where]) => where!.split(/[ .]/)[0]));
    expect([...sections].sort()).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    const bounds = SPEC.find(([where, rule]) => where === "8" && rule!.startsWith("the bounds of"))!;
    for (const field of fieldsOf(ProspectLogCreate).filter((name) => !["payload", "email"].includes(name)))
      expect(namedRules(bounds[2]!)).toContain(`create.bounds.${field}`);
  });

  it("has a row for every decision of docs/behaviour.md, under its section", () => {
    let heading = "";
    const missing: string[] = [];
    const headings: string[] = [];
    for (const line of behaviour.split("\n")) {
      if (line.startsWith("## ")) headings.push((heading = words(line.slice(3)).join(" ")));
      const item = /^(?:- |\d+\. )(.*)$/.exec(line)?.[1];
      if (item === undefined) continue;
      // A decision is named by its bold lead, or by its first four words.
      const key = (/^\*\*(.+?)\*\*/.exec(item)?.[1] ?? item).trim();
      const wanted = words(key).slice(0, 4).join(" ");
      const found = DECISIONS.some(
        ([section, decision]) => heading.startsWith(words(section!).join(" ")) && words(decision!).join(" ").startsWith(wanted),
      );
      if (!found) missing.push(`${heading}: ${key.slice(0, 60)}`);
    }
    expect(missing).toEqual([]);
    const sections = DECISIONS.map(([section]) => words(section!).join(" "));
    expect(headings.filter((name) => !sections.some((section) => name.startsWith(section)))).toEqual([]);
  });
});

describe("docs/contract-check.md, what it says of a run", () => {
  it("the requests of a whole run, its time at the default pace, the default budget and the number of mutants are as measured", async () => {
    const api = deploymentMock();
    const report = await runVerify({
      baseUrl: api.baseUrl,
      apiKey: KEYS.a,
      otherTenantKey: KEYS.b,
      ...INPUTS,
      rate: 100_000,
      fetch: deploymentFetch(api),
    });
    expect(report.results.filter((result) => result.status !== "passed")).toEqual([]);
    // The guide says "a few hundred", "fewer than the default --max-requests" and "under a minute at
    // the default pace" rather than the exact count, so adding an operation does not touch it; these
    // hold the words to the measured run (a 4th operation that outgrows them fails here).
    expect(report.stopped).toBeUndefined();
    expect(report.requests).toBeGreaterThanOrEqual(200);
    expect(report.requests).toBeLessThan(DEFAULT_MAX_REQUESTS);
    expect(report.requests / DEFAULT_RATE).toBeLessThan(60);
    expect(guide).toContain("A run with every input sends a few hundred requests, fewer than the default\n`--max-requests`");
    expect(guide).toContain(`at the default pace of ${DEFAULT_RATE} a second (gentle on a\nshared deployment) that takes under a minute`);
    expect(guide).toContain(`| \`--max-requests N\` | \`${DEFAULT_MAX_REQUESTS}\` |`);
    expect(guide).toContain("A whole run with every input stays under the default. |");
    expect(guide).toContain(`against ${MUTANTS.length} single-rule mutants`);
  });
});

describe("docs/contract-check.md, what it says of the report", () => {
  /** Reports with every field a report can hold: a whole run (restore, summary), and one with a wrong input, interrupted. */
  async function reports() {
    const api = deploymentMock();
    const options = { baseUrl: api.baseUrl, apiKey: KEYS.a, otherTenantKey: KEYS.b, rate: 100_000, fetch: deploymentFetch(api) };
    const whole = await runVerify({ ...options, ...INPUTS });
    const stop = new AbortController();
    const cut = await runVerify({
      ...options,
      page: { pageGroupId: "pagegroup_v", pageId: "page_typo" },
      signal: stop.signal,
      onProgress: (_, __, rule) => rule.operation === "updateWebhookSubscription" && stop.abort(),
    });
    return [whole, cut] as const;
  }

  it("documents every --json field: the report's, its summary's and its restore's", async () => {
    const documented = new Set([...guide.matchAll(/^\| `(\w+)` \| /gm)].map((match) => match[1]!));
    const cells = guide.slice(guide.indexOf("`--json` prints the same report as JSON"));
    const missing: string[] = [];
    const all = await reports();
    expect(all.flatMap((report) => Object.keys(report))).toEqual(expect.arrayContaining(["restore", "inputProblems", "stopped"]));
    for (const report of all) {
      const json = JSON.parse(reportJson(report)) as Record<string, unknown>;
      for (const key of Object.keys(json)) if (!documented.has(key)) missing.push(key);
      for (const [field, inner] of [
        ["summary", json.summary],
        ["restore", json.restore],
      ] as const)
        for (const key of Object.keys((inner as object | undefined) ?? {})) if (!cells.includes(`\`${key}\``)) missing.push(`${field}.${key}`);
    }
    expect(missing).toEqual([]);
  });

  it("the request count is where it says: on the line before Result:", async () => {
    const [whole] = await reports();
    const lines = formatReport(whole).trimEnd().split("\n");
    expect(lines.at(-1)).toMatch(/^Result: /);
    expect(lines.at(-2)).toMatch(new RegExp(`; ${whole.requests} of ${DEFAULT_MAX_REQUESTS} requests, `));
    expect(guide).toContain("`--max-requests` (the line before `Result:` says how many)");
  });
});
