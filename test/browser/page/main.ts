/**
 * The browser page's script (bundled by esbuild for Chromium): the mock's MSW handlers served by
 * `setupWorker` from `msw/browser`, the SDK calling the API's three operations and one that fails
 * with 404 through the page's own `fetch`, and every result shown in the page as a table row
 * `<tr data-key="…">`, which the test reads back. The page sets `#status[data-state]` to `done`
 * or `failed` (with the error) at the end.
 */
import { setupWorker } from "msw/browser";
import { createMockApi } from "../../../mock/index.js";
import { createClient, NotFoundError } from "../../../src/index.js";
import { API_KEY, BASE_URL, LOG_INPUT, MISSING_PAGE_ID, PAGE, SUBSCRIPTION, SUBSCRIPTION_UPDATE, T0, T1, TENANT_ID } from "./scenario.js";

/** Adds one result row: the key, and the value as text (JSON unless it is a string). */
function show(key: string, value: unknown): void {
  const row = document.createElement("tr");
  row.dataset["key"] = key;
  const name = document.createElement("th");
  name.textContent = key;
  const text = document.createElement("td");
  text.textContent = typeof value === "string" ? value : JSON.stringify(value);
  row.append(name, text);
  document.querySelector("#results tbody")?.append(row);
}

function finish(state: "done" | "failed", text: string): void {
  const status = document.querySelector<HTMLElement>("#status");
  if (status === null) return;
  status.dataset["state"] = state;
  status.textContent = text;
}

async function run(): Promise<void> {
  let now = Date.parse(T0);
  const api = createMockApi({
    apiKeys: { [API_KEY]: TENANT_ID },
    seed: 7,
    now: () => now,
    baseUrl: BASE_URL,
    fixtures(state) {
      state.pageGroups.create({ id: PAGE.pageGroupId });
      state.pages.create({ id: PAGE.pageId, pageGroupId: PAGE.pageGroupId });
      const version = state.pageVersions.create({ pageId: PAGE.pageId });
      state.pageVersions.process(version.id, { computedName: PAGE.computedName });
      state.pageVersions.publish(version.id);
      state.webhookSubscriptions.create({ id: SUBSCRIPTION.id, url: SUBSCRIPTION.url });
    },
  });

  // The worker file comes from `msw init`, served at the root. Every unhandled request fails: this page
  // never reloads (an app with a dev server uses docs/testing.md's recipe, test/browser/app-recipe.test.ts).
  const worker = setupWorker(...api.handlers);
  await worker.start({ serviceWorker: { url: "/mockServiceWorker.js" }, onUnhandledFrame: "error", quiet: true });
  show("worker", new URL(navigator.serviceWorker.controller?.scriptURL ?? "about:blank").pathname);

  const client = createClient({ apiKey: API_KEY, baseUrl: BASE_URL, maxRetries: 0 });

  const log = await client.createProspectLog({ ...LOG_INPUT, payload: { ...LOG_INPUT.payload } });
  show("createProspectLog.prospectLogId", log.prospectLogId);
  show("createProspectLog.prospectId", log.prospectId);
  show("createProspectLog.createdProspect", log.createdProspect);
  show("createProspectLog.type", log.type);

  const page = await client.getPage({ pageGroupId: PAGE.pageGroupId, pageId: PAGE.pageId });
  show("getPage.effectiveName", page.effectiveName);
  show("getPage.customName", page.customName);
  show("getPage.publishedVersion.versionNumber", page.publishedVersion.versionNumber);

  now = Date.parse(T1);
  const subscription = await client.updateWebhookSubscription({ subscriptionId: SUBSCRIPTION.id, ...SUBSCRIPTION_UPDATE });
  show("updateWebhookSubscription.events", subscription.events);
  show("updateWebhookSubscription.active", subscription.active);
  show("updateWebhookSubscription.createdAt", subscription.createdAt);
  show("updateWebhookSubscription.updatedAt", subscription.updatedAt);

  try {
    await client.getPage({ pageGroupId: PAGE.pageGroupId, pageId: MISSING_PAGE_ID });
    show("error.class", "none: the missing page was found");
  } catch (error) {
    show("error.class", error instanceof Error ? error.name : String(error));
    show("error.isNotFoundError", NotFoundError.is(error) && error instanceof NotFoundError);
    if (NotFoundError.is(error)) {
      show("error.status", error.status);
      show("error.code", error.code);
    }
  }

  show(
    "mock.requests",
    api.requests.list().map((request) => `${request.method} ${request.path} ${request.status}`),
  );
  worker.stop();
}

run().then(
  () => finish("done", "done: every call answered by the mock through the service worker"),
  (error: unknown) => finish("failed", `failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
);
