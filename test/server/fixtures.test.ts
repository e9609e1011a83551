/** Fixture documents: validated like the control API's bodies, loaded in order, refusals named by pointer. */
import { describe, expect, it } from "vitest";
import { type FixtureDocument, loadFixtures } from "../../mock/control/fixtures.js";
import { createMockApi, MockStateError } from "../../mock/core.js";
import { DEMO_IDS, demoFixtures } from "../../mock/server/demo.js";

const fresh = () => createMockApi({ apiKeys: ["k"], seed: 1 });

describe("loadFixtures", () => {
  it("loads the demo data: a published page and a subscription with the documented IDs", () => {
    const api = fresh();
    loadFixtures(api.state, demoFixtures("http://127.0.0.1:4010"));
    expect(api.state.pages.view(DEMO_IDS.page)).toMatchObject({
      pageGroupId: DEMO_IDS.pageGroup,
      effectiveName: "Pricing",
      publishedVersion: { versionId: DEMO_IDS.pageVersion, versionNumber: 1 },
    });
    expect(api.state.webhookSubscriptions.get(DEMO_IDS.subscription)).toMatchObject({
      active: true,
      events: ["page.version.published"],
      url: "http://127.0.0.1:4010/__mock/inbox/demo",
    });
  });

  it("creates prospect logs exactly as the API does (type defaults, prospects resolved)", () => {
    const api = fresh();
    loadFixtures(api.state, { prospects: [{ email: "a@example.com" }], prospectLogs: [{ source: "s", payload: {}, email: "A@example.com" }] });
    const [log] = api.state.prospectLogs.list();
    expect(log).toMatchObject({ type: "webhook", createdProspect: false, prospectId: api.state.prospects.list()[0]!.id });
  });

  it.each([
    ["an invalid field", { pages: [{ computedName: 1 }] }, "/pages/0/computedName", "invalid_type"],
    ["an unknown list", { pagez: [] }, "/pagez", "unknown_field"],
    ["a missing page group", { pages: [{ pageGroupId: "nope" }] }, "/pages/0/pageGroupId", "not_found"],
    ["a missing page", { pageVersions: [{ pageId: "nope" }] }, "/pageVersions/0/pageId", "not_found"],
    ["a taken ID", { pageGroups: [{ id: "g" }, { id: "g" }] }, "/pageGroups/1/id", "duplicate"],
    [
      "publishing without a computed name",
      { pages: [{ id: "p" }], pageVersions: [{ pageId: "p", publish: true }] },
      "/pageVersions/0/publish",
      "required_to_publish",
    ],
    [
      "an identifier another prospect holds",
      { prospects: [{ email: "a@example.com" }, { email: "A@example.com" }] },
      "/prospects/1/email",
      "duplicate",
    ],
    ["an invalid prospect log", { prospectLogs: [{ source: "", payload: {} }] }, "/prospectLogs/0/source", "too_short"],
  ])("%s is refused, naming %s", (_, document, pointer, code) => {
    const api = fresh();
    let error: unknown;
    try {
      loadFixtures(api.state, document as FixtureDocument);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(MockStateError);
    expect((error as MockStateError).errors[0]).toMatchObject({ pointer, code });
  });
});
