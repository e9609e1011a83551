/**
 * Rules of `GET /v0/page_groups/{page_group_id}/pages/{page_id}` (spec 2.3, 4.2, BEHAVIOUR "Get
 * page"): the exact shape, effectiveName, unpublished pages, the latest published version, 404s.
 */
import { describe, expect, it } from "vitest";
import { Page } from "../../../src/schemas/index.js";
import { A, B, T0_ISO } from "../fixtures.js";
import { expectProblem, type Harness } from "../harness.js";

/** Registers the rules. */
export function getPageRules(h: Harness): void {
  describe("get page: the page and its published version", () => {
    it("200 with exactly the spec's nine fields, valid by the shared schema", async () => {
      const answer = await h.getPage(A.group, A.custom);
      expect(answer.status).toBe(200);
      expect(Page.safeParse(answer.body).success).toBe(true);
      expect(answer.body).toEqual({
        pageId: A.custom,
        pageGroupId: A.group,
        tenantId: "tenant_a",
        createdAt: T0_ISO,
        effectiveName: "Pricing",
        customName: "Pricing",
        computedName: "AI pricing",
        supplementaryContext: "Q1 campaign",
        publishedVersion: { versionId: `${A.custom}_v1`, versionNumber: 1, publishedAt: T0_ISO },
      });
    });

    it("a page never published answers 200 with publishedVersion of three nulls", async () => {
      const answer = await h.getPage(A.group, A.nullName);
      expect(answer.status).toBe(200);
      expect(answer.body.publishedVersion).toEqual({ versionId: null, versionNumber: null, publishedAt: null });
      expect(answer.body.customName).toBeNull();
      expect(answer.body.supplementaryContext).toBeNull();
    });

    it("publishedVersion describes the latest published version, not a newer unpublished one", async () => {
      expect((await h.getPage(A.group, A.versions)).body.publishedVersion).toEqual({
        versionId: `${A.versions}_v2`,
        versionNumber: 2,
        publishedAt: T0_ISO,
      });
    });

    it("publishing a newer version moves publishedVersion; versionNumber counts from 1 within the page", async () => {
      h.advance(60_000);
      h.api.state.pageVersions.publish(`${A.versions}_v3`);
      expect((await h.getPage(A.group, A.versions)).body.publishedVersion).toEqual({
        versionId: `${A.versions}_v3`,
        versionNumber: 3,
        publishedAt: "2024-02-29T12:01:00.000Z",
      });
      const other = h.api.state.pageVersions.create({ pageId: A.nullName });
      expect(other.versionNumber).toBe(1);
    });

    it("the computed name is that of the last processed version", async () => {
      const version = h.api.state.pageVersions.create({ pageId: A.nullName });
      h.api.state.pageVersions.process(version.id, { computedName: "Freshly computed" });
      expect((await h.getPage(A.group, A.nullName)).body).toMatchObject({ computedName: "Freshly computed", effectiveName: "Freshly computed" });
    });

    it.each([
      ["a custom name", "Pricing", "Pricing"],
      ["a custom name with spaces around it (kept as is)", "  Spaced  ", "  Spaced  "],
      ["null", null, "AI name"],
      ["an empty custom name", "", "AI name"],
      ["a blank custom name", "   ", "AI name"],
      ["a custom name of tabs and newlines", "\t\n", "AI name"],
      ["a custom name of non-breaking spaces", "\u00a0\u2003", "AI name"],
    ])("effectiveName with %s is %j", async (_, customName, effectiveName) => {
      h.api.state.pages.update(A.nullName, { customName });
      const answer = await h.getPage(A.group, A.nullName);
      expect(answer.body).toMatchObject({ customName, computedName: "AI name", effectiveName });
    });

    it("the fixture page with a blank custom name shows its computed name", async () => {
      expect((await h.getPage(A.group, A.blank)).body).toMatchObject({ customName: "   ", effectiveName: "AI blank" });
    });

    it("IDs are URL-decoded path segments: an ID with spaces, slashes, ?, # and % is found", async () => {
      const answer = await h.getPage(A.oddGroup, A.oddPage);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ pageGroupId: A.oddGroup, pageId: A.oddPage });
    });
  });

  describe("get page: 404 not_found", () => {
    it.each([
      ["an unknown page group", "pagegroup_missing", A.custom],
      ["a page of another group", A.otherGroup, A.custom],
      ["a page of another tenant", B.group, B.page],
      ["a group ID that only differs in case", A.group.toUpperCase(), A.custom],
      ["an undecoded ID", encodeURIComponent(A.oddGroup), A.oddPage],
    ])("%s answers 404", async (_, group, page) => {
      expectProblem(await h.getPage(group, page), 404, "not_found");
    });
  });
}
