/**
 * prospectkit/mock in a real browser: headless Chromium (Debian's build, installed like the
 * runtime matrix does when missing) loads a page that serves `api.handlers` through msw's
 * `setupWorker` with the worker file from `msw init`, calls the SDK's three operations and one
 * that fails with 404, and shows the results; the test reads them back from the page. Without
 * Chromium the test fails (in CI and outside it); it never skips.
 *
 * `PROSPECTKIT_BROWSER_SCREENSHOT=<file.png>` keeps a screenshot of the finished page there.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROSPECT_ID_PATTERN, PROSPECT_LOG_ID_PATTERN } from "../../src/index.js";
import { connectChromium } from "../support/chromium.ts";
import { BASE_URL, MISSING_PAGE_ID, PAGE, SUBSCRIPTION, SUBSCRIPTION_UPDATE, T0, T1 } from "./page/scenario.js";
import { buildPage, servePage, WORKER_FILE } from "./page-server.js";
import { collectProblems } from "./support/problems.ts";

/** What the page showed: each result row's key and text, the final status and problems seen. */
interface PageOutcome {
  readonly rows: Readonly<Record<string, string>>;
  readonly state: string | undefined;
  readonly status: string;
  readonly problems: readonly string[];
  readonly screenshot: Buffer;
}

/** Opens the page in a fresh context of the project's Chromium and reads the table once the page says it is done. */
async function openPage(url: string): Promise<PageOutcome> {
  const browser = await connectChromium();
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const problems = collectProblems(tab);
    await tab.goto(url);
    await tab.waitForSelector('#status:not([data-state="running"])', { timeout: 60_000 });
    const rows = await tab.$$eval("#results tr[data-key]", (trs) =>
      Object.fromEntries(trs.map((tr) => [(tr as HTMLElement).dataset["key"] ?? "", tr.querySelector("td")?.textContent ?? ""])),
    );
    const status = tab.locator("#status");
    return {
      rows,
      state: (await status.getAttribute("data-state")) ?? undefined,
      status: (await status.textContent()) ?? "",
      problems,
      screenshot: await tab.screenshot({ fullPage: true }),
    };
  } finally {
    await browser.close();
  }
}

describe("prospectkit/mock through msw setupWorker in headless Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "prospectkit-browser-"));
  let outcome: PageOutcome;

  beforeAll(async () => {
    const site = join(dir, "site");
    mkdirSync(site);
    await buildPage(site);
    const server = await servePage(site);
    try {
      outcome = await openPage(server.url);
    } finally {
      await server.close();
    }
    const keep = process.env["PROSPECTKIT_BROWSER_SCREENSHOT"];
    if (keep) writeFileSync(keep, outcome.screenshot);
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("finishes every call, with no page or console error but Chromium's note of the expected 404", () => {
    const missing = `${BASE_URL}/v0/page_groups/${PAGE.pageGroupId}/pages/${MISSING_PAGE_ID}`;
    const expected = [`console error: Failed to load resource: the server responded with a status of 404 () (${missing})`];
    expect({ state: outcome.state, problems: outcome.problems }, outcome.status).toEqual({ state: "done", problems: expected });
  });

  it("is controlled by the worker file msw init wrote", () => {
    expect(outcome.rows["worker"]).toBe(`/${WORKER_FILE}`);
    expect(readFileSync(join(dir, "site", WORKER_FILE), "utf8")).toContain("Mock Service Worker");
  });

  it("createProspectLog: a new log and a new prospect, IDs in the spec's patterns, type defaulted", () => {
    expect(outcome.rows["createProspectLog.prospectLogId"]).toMatch(PROSPECT_LOG_ID_PATTERN);
    expect(outcome.rows["createProspectLog.prospectId"]).toMatch(PROSPECT_ID_PATTERN);
    expect(outcome.rows["createProspectLog.createdProspect"]).toBe("true");
    expect(outcome.rows["createProspectLog.type"]).toBe("webhook");
  });

  it("getPage: effectiveName is the computed name when customName is null", () => {
    expect(outcome.rows["getPage.effectiveName"]).toBe(PAGE.computedName);
    expect(outcome.rows["getPage.customName"]).toBe("null");
    expect(outcome.rows["getPage.publishedVersion.versionNumber"]).toBe("1");
  });

  it("updateWebhookSubscription: events de-duplicated in order, deactivated, updatedAt moved", () => {
    expect(JSON.parse(outcome.rows["updateWebhookSubscription.events"] ?? "null")).toEqual([...new Set(SUBSCRIPTION_UPDATE.events)]);
    expect(outcome.rows["updateWebhookSubscription.active"]).toBe(String(SUBSCRIPTION_UPDATE.active));
    expect(outcome.rows["updateWebhookSubscription.createdAt"]).toBe(T0);
    expect(outcome.rows["updateWebhookSubscription.updatedAt"]).toBe(T1);
  });

  it("a missing page rejects with NotFoundError (404 not_found)", () => {
    expect(outcome.rows["error.class"]).toBe("NotFoundError");
    expect(outcome.rows["error.isNotFoundError"]).toBe("true");
    expect(outcome.rows["error.status"]).toBe("404");
    expect(outcome.rows["error.code"]).toBe("not_found");
  });

  it("the mock answered exactly those four requests, through the worker", () => {
    expect(JSON.parse(outcome.rows["mock.requests"] ?? "null")).toEqual([
      "POST /v0/prospect_logs 201",
      `GET /v0/page_groups/${PAGE.pageGroupId}/pages/${PAGE.pageId} 200`,
      `PATCH /v0/webhook_subscriptions/${SUBSCRIPTION.id} 200`,
      `GET /v0/page_groups/${PAGE.pageGroupId}/pages/${MISSING_PAGE_ID} 404`,
    ]);
  });
});
