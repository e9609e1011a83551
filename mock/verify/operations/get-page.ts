/**
 * Contract rules of `GET /v0/page_groups/{page_group_id}/pages/{page_id}` (spec 2.3, 4.2;
 * docs/behaviour.md "Get page"). The page given with `--page` is read once per run; the rules
 * that ask for it otherwise (under another group, in another case, encoded) use its IDs.
 * @module
 */

import { expectContract, expectEqual, expectProblem, expectStatus, isExactTimestamp, withoutRequestId } from "../expect.js";
import { pagePath, readPage } from "../inputs.js";
import { type ContractRule, type Exchange, expectThat, type VerifyContext } from "../rule.js";
import { MISSING, pathOf, ROW, type SampleInput } from "../rules/samples.js";

/** The sample request of the rules that hold for every operation: the page given (`--page`), else IDs no deployment has. */
export const sample: SampleInput = {
  path: (context) => pathOf(ROW.getPage, (key) => (context.page as Record<string, string> | undefined)?.[key] ?? MISSING[key as "pageId"]),
  missingPath: (context) =>
    pathOf(ROW.getPage, (key) => (key === "pageGroupId" ? (context.page?.pageGroupId ?? MISSING.pageGroupId) : MISSING.pageId)),
  needs: ["page"],
  // The page given, read once per run (a 404 is an input problem).
  existing: async (context) => (await readPage(context), pagePath(context.page!.pageGroupId, context.page!.pageId)),
};

const operation = "getPage" as const;
const source = "docs/behaviour.md, Get page";

/** Every character of an ID percent-encoded (`page` → `%70%61%67%65`). */
const encodedWhole = (id: string) =>
  Array.from(new TextEncoder().encode(id), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/** The same 404 as a page that does not exist (the request ID aside). */
async function expectLikeMissing(context: VerifyContext, exchange: Exchange, options: { key?: "other-tenant" } = {}): Promise<void> {
  expectProblem(exchange, 404, "not_found");
  const missing = await context.send("GET", pagePath(context.page!.pageGroupId, MISSING.pageId), options);
  expectEqual(
    withoutRequestId(exchange.answer.body),
    withoutRequestId(missing.answer.body),
    "the body a missing page gets (requestId aside)",
    exchange,
  );
}

/** The rules. */
export const rules: readonly ContractRule[] = [
  {
    id: "page.result",
    operation,
    class: "spec",
    title: "a page answers 200 with a Page (every field of spec 2.3) for the IDs asked",
    source: "spec 2.3, 4.2, 7",
    needs: ["page"],
    async run(context) {
      const { pageGroupId, pageId } = context.page!;
      const exchange = await readPage(context);
      expectStatus(exchange, 200);
      expectContract(exchange, operation);
      expectEqual([exchange.answer.body.pageGroupId, exchange.answer.body.pageId], [pageGroupId, pageId], "pageGroupId and pageId", exchange);
    },
  },
  {
    id: "page.effective-name",
    operation,
    class: "mock decision",
    title: "effectiveName is customName when it is set and not blank, else computedName",
    source,
    needs: ["page"],
    async run(context) {
      const exchange = await readPage(context);
      expectStatus(exchange, 200);
      const { customName, computedName, effectiveName } = exchange.answer.body;
      const expected = typeof customName === "string" && customName.trim() !== "" ? customName : computedName;
      expectEqual(effectiveName, expected, "effectiveName", exchange);
    },
  },
  {
    id: "page.published-version",
    operation,
    class: "mock decision",
    title:
      "the published version of a published page has a versionId, a versionNumber counting from 1, and a publishedAt in the one timestamp form; createdAt is in it too",
    source: "docs/behaviour.md, Get page; Identifiers and timestamps",
    needs: ["page"],
    async run(context) {
      const exchange = await readPage(context);
      expectStatus(exchange, 200);
      const { publishedVersion, createdAt } = exchange.answer.body;
      const { versionId, versionNumber, publishedAt } = publishedVersion ?? {};
      expectThat(typeof versionId === "string" && versionId !== "", `expected a versionId, got ${JSON.stringify(versionId)}`, exchange);
      expectThat(
        Number.isInteger(versionNumber) && versionNumber >= 1,
        `expected a versionNumber from 1, got ${JSON.stringify(versionNumber)}`,
        exchange,
      );
      for (const [name, value] of [
        ["publishedAt", publishedAt],
        ["createdAt", createdAt],
      ])
        expectThat(isExactTimestamp(value), `expected ${name} as YYYY-MM-DDTHH:mm:ss.sssZ, got ${JSON.stringify(value)}`, exchange);
    },
  },
  {
    id: "page.missing",
    operation,
    class: "mock decision",
    title: "an unknown page, in a known or an unknown group, is 404 not_found",
    source,
    async run(context) {
      const group = context.page?.pageGroupId ?? MISSING.pageGroupId;
      expectProblem(await context.send("GET", pagePath(group, MISSING.pageId)), 404, "not_found");
      expectProblem(await context.send("GET", pagePath(MISSING.pageGroupId, MISSING.pageId)), 404, "not_found");
    },
  },
  {
    id: "page.other-group",
    operation,
    class: "mock decision",
    title: "the page asked under a group it is not in answers exactly like a missing page: 404 not_found",
    source,
    needs: ["page"],
    async run(context) {
      await readPage(context);
      await expectLikeMissing(context, await context.send("GET", pagePath(MISSING.pageGroupId, context.page!.pageId)));
    },
  },
  {
    id: "page.ids-exact",
    operation,
    class: "mock decision",
    title:
      "IDs are compared exactly and each path segment is decoded once: the page's IDs fully percent-encoded find it; in another case, or encoded twice, they do not",
    source: "docs/behaviour.md, Identifiers and timestamps",
    needs: ["page"],
    async run(context) {
      await readPage(context);
      const { pageGroupId, pageId } = context.page!;
      const encoded = await context.send(
        "GET",
        `${pagePath("{g}", "{p}").replace("%7Bg%7D", encodedWhole(pageGroupId)).replace("%7Bp%7D", encodedWhole(pageId))}`,
      );
      expectStatus(encoded, 200);
      expectEqual(encoded.answer.body.pageId, pageId, "pageId", encoded);
      const twice = pagePath(pageGroupId, "{p}").replace("%7Bp%7D", encodeURIComponent(encodedWhole(pageId)));
      await expectLikeMissing(context, await context.send("GET", twice));
      const recased = pageId.replace(/[a-z]/gi, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()));
      if (recased !== pageId) await expectLikeMissing(context, await context.send("GET", pagePath(pageGroupId, recased)));
    },
  },
  {
    id: "page.other-tenant",
    operation,
    class: "mock decision",
    title: "another tenant's page answers exactly like a missing one: 404 not_found, never 403",
    source: "docs/behaviour.md, Authentication and tenancy",
    needs: ["page", "otherTenantKey"],
    async run(context) {
      await readPage(context);
      const { pageGroupId, pageId } = context.page!;
      await expectLikeMissing(context, await context.send("GET", pagePath(pageGroupId, pageId), { key: "other-tenant" }), { key: "other-tenant" });
    },
  },
];
