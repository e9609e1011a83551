/**
 * The demo data the CLI starts with (unless `--no-demo`): one published page, one webhook
 * subscription pointing at the server's own inbox and one prospect, with fixed IDs so that every
 * command in the docs and the banner works as printed, on every start and after every reset: an
 * operation whose path names a page group, a page, a subscription or a prospect finds one.
 * @module
 */
import type { FixtureDocument } from "../control/fixtures.js";
import { INBOX_PATH } from "../control/inbox.js";

/** The IDs of the demo data. */
export const DEMO_IDS = {
  pageGroup: "pagegroup_demo",
  page: "page_demo",
  pageVersion: "pageversion_demo_1",
  subscription: "webhooksubscription_demo",
  /** A prospect ID has the form of spec 2.1: `prospect_` and 26 lower-case letters or digits. */
  prospect: "prospect_demo0000000000000000000000",
  /** The inbox the demo subscription delivers to: `POST /__mock/inbox/demo`. */
  inbox: "demo",
} as const;

/**
 * The demo data, as a fixture document.
 * @param serverUrl - the server's URL: the demo subscription delivers to its inbox
 */
export const demoFixtures = (serverUrl: string): FixtureDocument => ({
  pageGroups: [{ id: DEMO_IDS.pageGroup }],
  pages: [
    {
      id: DEMO_IDS.page,
      pageGroupId: DEMO_IDS.pageGroup,
      customName: "Pricing",
      computedName: "Pricing plans for teams",
      supplementaryContext: "The demo page of the prospectkit mock server.",
    },
  ],
  pageVersions: [{ id: DEMO_IDS.pageVersion, pageId: DEMO_IDS.page, computedName: "Pricing plans for teams", publish: true }],
  prospects: [{ id: DEMO_IDS.prospect, email: "grace@example.com", name: "Grace Hopper" }],
  webhookSubscriptions: [
    {
      id: DEMO_IDS.subscription,
      url: `${serverUrl}${INBOX_PATH}/${DEMO_IDS.inbox}`,
      events: ["page.version.published"],
      active: true,
    },
  ],
});
