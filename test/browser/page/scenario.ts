/**
 * What the browser page and the test that reads it agree on: the mock's base URL, the key, the
 * seeded IDs and the calls' inputs. Plain data, so the page bundle and the test both import it.
 */

/** The API's base URL in the page: a `.test` host that does not exist, so only the worker can answer. */
export const BASE_URL = "https://api.prospectkit.test";

/** The page's API key and its tenant. */
export const API_KEY = "pk_test_browser";
export const TENANT_ID = "tenant_browser";

/** The mock's clock starts here; the page moves it one minute before the update. */
export const T0 = "2024-02-29T12:00:00.000Z";
export const T1 = "2024-02-29T12:01:00.000Z";

/** The seeded page: no custom name, so `effectiveName` is the computed name of its processed version. */
export const PAGE = { pageGroupId: "pagegroup_browser", pageId: "page_browser", computedName: "Pricing for teams" } as const;

/** The seeded subscription (all events) and the update the page sends: duplicates, and off. */
export const SUBSCRIPTION = { id: "whsub_browser", url: "https://hooks.example.com/browser" } as const;
export const SUBSCRIPTION_UPDATE = { events: ["form.submitted", "form.enriched", "form.submitted"], active: false } as const;

/** The prospect log the page creates: a new prospect by email. */
export const LOG_INPUT = { source: "browser-page", email: "ada@example.com", name: "Ada Lovelace", payload: { form: "demo" } } as const;

/** A page that does not exist: the error path. */
export const MISSING_PAGE_ID = "page_missing";
