/**
 * The data every conformance test starts from (seeded through `api.state`, re-seeded by each
 * reset): two tenants, pages in every naming and publishing shape, subscriptions with
 * `events: null`, a list, and inactive, and prospects holding identifiers.
 */
import type { MockState } from "../../mock/index.js";

/** The mock's base URL in the suite. */
export const BASE_URL = "https://api.prospectkit.test";

/** The suite's clock starts here: a leap day, to show the date rule holds. */
export const T0 = Date.parse("2024-02-29T12:00:00.000Z");

/** The ISO form of T0. */
export const T0_ISO = "2024-02-29T12:00:00.000Z";

/** API keys: two of tenant A, one of tenant B. */
export const KEYS = { a: "pk_test_tenant_a", a2: "pk_test_tenant_a_second", b: "pk_test_tenant_b" } as const;

/** Tenant A's page groups and pages. */
export const A = {
  group: "pagegroup_a1",
  otherGroup: "pagegroup_a2",
  /** customName "Pricing", published once. */
  custom: "page_custom",
  /** customName null, never published. */
  nullName: "page_null_name",
  /** customName blank, never published. */
  blank: "page_blank",
  /** Versions 1 and 2 published, 3 processed only: version 2 is shown. */
  versions: "page_versions",
  /** In the other group. */
  inOtherGroup: "page_in_a2",
  /** IDs that need URL encoding. */
  oddGroup: "group ü/1?#",
  oddPage: "page with space/ü%",
} as const;

/** Tenant B's page. */
export const B = { group: "pagegroup_b1", page: "page_b1", subscription: "whsub_b" } as const;

/** Tenant A's subscriptions. */
export const SUBSCRIPTIONS = { all: "whsub_all", list: "whsub_list", inactive: "whsub_inactive" } as const;

/** Tenant A's known prospect and its identifiers. */
export const KNOWN = {
  id: "prospect_01hzy8k3m4n5p6q7r8s9t0v1wx",
  email: "Known.Person@Example.com",
  phoneNumber: "+14155550100",
  linkedinProfileUrl: "https://www.linkedin.com/in/known-person/",
  name: "Known Person",
} as const;

/** A second prospect of tenant A that holds only a phone number. */
export const PHONE_ONLY = { id: "prospect_01hzy8k3m4n5p6q7r8s9t0v1wy", phoneNumber: "+442071838750" } as const;

/** A prospect of tenant B (its email is unknown to tenant A). */
export const B_PROSPECT = { id: "prospect_01hzy8k3m4n5p6q7r8s9t0v1wz", email: "only-b@example.com" } as const;

function publishedVersions(state: MockState, pageId: string, names: readonly string[], publish: readonly number[]): void {
  names.forEach((computedName, index) => {
    const version = state.pageVersions.create({ pageId, id: `${pageId}_v${index + 1}` });
    state.pageVersions.process(version.id, { computedName });
    if (publish.includes(index + 1)) state.pageVersions.publish(version.id);
  });
}

/** Seeds the suite's data (runs at creation and after every reset). */
export function seedFixtures(state: MockState): void {
  state.pageGroups.create({ id: A.group });
  state.pageGroups.create({ id: A.otherGroup });
  state.pageGroups.create({ id: A.oddGroup });
  state.pages.create({ id: A.custom, pageGroupId: A.group, customName: "Pricing", computedName: "AI pricing", supplementaryContext: "Q1 campaign" });
  publishedVersions(state, A.custom, ["AI pricing"], [1]);
  state.pages.create({ id: A.nullName, pageGroupId: A.group, computedName: "AI name" });
  state.pages.create({ id: A.blank, pageGroupId: A.group, customName: "   ", computedName: "AI blank" });
  state.pages.create({ id: A.versions, pageGroupId: A.group, computedName: "first" });
  publishedVersions(state, A.versions, ["first", "second", "third"], [1, 2]);
  state.pages.create({ id: A.inOtherGroup, pageGroupId: A.otherGroup });
  state.pages.create({ id: A.oddPage, pageGroupId: A.oddGroup, customName: "Odd" });

  state.webhookSubscriptions.create({ id: SUBSCRIPTIONS.all, url: "https://hooks.example.com/all" });
  state.webhookSubscriptions.create({
    id: SUBSCRIPTIONS.list,
    url: "https://hooks.example.com/list",
    events: ["form.submitted", "page.version.published"],
  });
  state.webhookSubscriptions.create({ id: SUBSCRIPTIONS.inactive, url: "http://hooks.example.com/off", events: ["form.enriched"], active: false });

  state.prospects.create(KNOWN);
  state.prospects.create(PHONE_ONLY);

  state.pageGroups.create({ tenantId: "tenant_b", id: B.group });
  state.pages.create({ tenantId: "tenant_b", id: B.page, pageGroupId: B.group, customName: "B's page" });
  state.webhookSubscriptions.create({ tenantId: "tenant_b", id: B.subscription, url: "https://hooks.example.com/b" });
  state.prospects.create({ tenantId: "tenant_b", ...B_PROSPECT });
}
