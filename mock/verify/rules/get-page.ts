/** Contract rules of `GET /v0/page_groups/{page_group_id}/pages/{page_id}` (spec 2.3, 4.2; docs/behaviour.md "Get page"). */
import { fillPath, getPageRoute } from "../../../src/operations.js";
import { expectContract, expectEqual, expectProblem, expectStatus } from "../expect.js";
import { type ContractRule, expectThat, type VerifyContext } from "../rule.js";

const operation = "getPage" as const;

/** The path of a page, its IDs URL-encoded. */
export const pagePath = (pageGroupId: string, pageId: string): string =>
  fillPath(getPageRoute, (param) => encodeURIComponent(param.key === "pageGroupId" ? pageGroupId : pageId));

const givenPage = (context: VerifyContext) => context.page!;

/** Reads the page given with `--page`. */
const readGivenPage = (context: VerifyContext) => {
  const { pageGroupId, pageId } = givenPage(context);
  return context.send("GET", pagePath(pageGroupId, pageId));
};
const MISSING_PAGE = "page_prospectkit_verify_missing";

/** The rules. */
export const getPageRules: readonly ContractRule[] = [
  {
    id: "page.result",
    operation,
    class: "spec",
    title: "a page answers 200 with a Page (every field of spec 2.3) for the IDs asked",
    source: "spec 2.3, 4.2",
    needs: ["page"],
    async run(context) {
      const { pageGroupId, pageId } = givenPage(context);
      const exchange = await readGivenPage(context);
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
    source: "docs/behaviour.md, Get page",
    needs: ["page"],
    async run(context) {
      const exchange = await readGivenPage(context);
      expectStatus(exchange, 200);
      const { customName, computedName, effectiveName } = exchange.answer.body;
      const expected = typeof customName === "string" && customName.trim() !== "" ? customName : computedName;
      expectEqual(effectiveName, expected, "effectiveName", exchange);
    },
  },
  {
    id: "page.missing",
    operation,
    class: "mock decision",
    title: "an unknown page is 404 not_found",
    source: "docs/behaviour.md, Get page",
    async run(context) {
      const group = context.page?.pageGroupId ?? "pagegroup_prospectkit_verify_missing";
      expectProblem(await context.send("GET", pagePath(group, MISSING_PAGE)), 404, "not_found");
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
      const { pageGroupId, pageId } = givenPage(context);
      const other = await context.send("GET", pagePath(pageGroupId, pageId), { key: "other-tenant" });
      expectProblem(other, 404, "not_found");
      const missing = await context.send("GET", pagePath(pageGroupId, MISSING_PAGE), { key: "other-tenant" });
      const { requestId: _a, ...otherBody } = other.answer.body;
      const { requestId: _b, ...missingBody } = missing.answer.body;
      expectThat(JSON.stringify(otherBody) === JSON.stringify(missingBody), "expected the same body as for a missing page (requestId aside)", other);
    },
  },
];
