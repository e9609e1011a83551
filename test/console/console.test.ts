/**
 * The mock console in a real browser (headless Chromium via playwright-core), against a real
 * `startMockServer` with the demo data: the key screen (a wrong key is refused in words), the
 * live request log (a log created through the SDK shows up without a reload), publishing a
 * version from the page (GET page changes), arming a 503 from the page (the next SDK call fails
 * with InternalServerError), the API's own field errors next to a subscription's fields, and no
 * serious or critical axe-core violation in any view at 1280x800 or 390x844.
 *
 * `PROSPECTKIT_UPDATE_SCREENSHOTS=1` writes the screenshots it takes to docs/images/.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixtures } from "../../mock/control/fixtures.js";
import { DEFAULT_API_KEY } from "../../mock/core.js";
import { DEMO_IDS, demoFixtures } from "../../mock/server/demo.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { createClient, InternalServerError, verifyWebhook } from "../../src/index.js";
import { connectChromium } from "../support/chromium.ts";
import { seriousViolations } from "./browser.ts";

const IMAGES = resolve(import.meta.dirname, "../../docs/images");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let server: MockServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

async function screenshot(name: string, target: Page = page): Promise<void> {
  const image = await target.screenshot({ fullPage: false });
  expect(image.byteLength).toBeGreaterThan(5_000);
  if (process.env["PROSPECTKIT_UPDATE_SCREENSHOTS"] === "1") writeFileSync(resolve(IMAGES, `${name}.png`), image);
}

/** No serious or critical axe-core violation on the page as it is now (the message lists any). */
async function expectAccessible(target: Page): Promise<void> {
  const violations = await seriousViolations(target);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

async function openTab(name: string, target: Page = page): Promise<void> {
  await target.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
}

/** Opens the console: straight on the data with the development key, else through the key screen. */
async function signIn(target: Page, key = DEFAULT_API_KEY): Promise<void> {
  await target.goto(server.url, { waitUntil: "load" });
  const live = target.getByText("Live", { exact: true });
  const form = target.getByLabel("API key");
  await live.or(form).first().waitFor();
  // The console opens on the data with the development key: another key goes through "Change key".
  if (key !== DEFAULT_API_KEY && (await live.isVisible())) {
    await target.getByRole("button", { name: "Change key" }).click();
    await form.waitFor();
  }
  if (await form.isVisible()) {
    await form.fill(key);
    await target.getByRole("button", { name: "Open the console" }).click();
  }
  await live.waitFor();
}

const sdk = () => createClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.url, maxRetries: 0 });

beforeAll(async () => {
  server = await startMockServer({ port: 0, fixtures: (state, { url }) => loadFixtures(state, demoFixtures(url)) });
  browser = await connectChromium();
  page = await browser.newPage({ viewport: DESKTOP });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !/status of (401|400|404|503)/.test(message.text())) problems.push(`console error: ${message.text()}`);
  });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the mock console in Chromium", { timeout: 60_000 }, () => {
  // Issue 34.8: it used to open on the key screen with the development key filled in (one needless click).
  it("a browser opening the server root lands straight on the data when the server accepts the development key: no key screen, no click", async () => {
    await page.goto(server.url);
    expect(new URL(page.url()).pathname).toBe("/__mock/console");
    await page.getByText("Live", { exact: true }).waitFor();
    expect(await page.getByLabel("API key").count()).toBe(0);
    await expect.poll(() => page.locator("#request-log, .empty").count()).toBeGreaterThan(0);
    expect(await page.content()).not.toContain(DEFAULT_API_KEY);
    await expectAccessible(page);
  });

  it("Change key shows the key screen (pre-filled with the development key), also after a reload", async () => {
    await page.getByRole("button", { name: "Change key" }).click();
    await expect.poll(() => page.getByLabel("API key").inputValue()).toBe(DEFAULT_API_KEY);
    await page.reload({ waitUntil: "load" });
    await expect.poll(() => page.getByLabel("API key").inputValue()).toBe(DEFAULT_API_KEY);
    await expectAccessible(page);
  });

  it("a server that does not accept the development key opens on the key screen, empty", async () => {
    const keyed = await startMockServer({ port: 0, apiKeys: ["own_key"] });
    const other = await browser.newPage({ viewport: DESKTOP });
    try {
      await other.goto(keyed.url, { waitUntil: "load" });
      await expect.poll(() => other.getByLabel("API key").inputValue()).toBe("");
      expect(await other.getByText("Live", { exact: true }).count()).toBe(0);
    } finally {
      await other.close();
      await keyed.close();
    }
  });

  it("a wrong key is refused with a message saying what to do, and is not kept", async () => {
    await page.getByLabel("API key").fill("not_a_key");
    await page.getByRole("button", { name: "Open the console" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("does not accept that API key");
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain("not_a_key");
    await screenshot("console-key");
  });

  it("a prospect log created through the SDK appears in the live request log without a reload", async () => {
    await signIn(page);
    await sdk().createProspectLog({
      source: "crm",
      payload: { plan: "team", note: "Zürich café ✓" },
      email: "ada@example.com",
      name: "Ada Lovelace",
    });
    const row = page.locator("#request-log li", { hasText: "/v0/prospect_logs" }).first();
    await row.waitFor();
    expect(await row.locator(".badge").textContent()).toBe("201");
    await row.locator("summary").click();
    await expect.poll(() => row.textContent()).toContain("Zürich café ✓");
    await row.locator("summary").click();
    // A refused request shows the API's field errors (sent raw: the SDK would refuse it before sending).
    await fetch(`${server.url}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ source: "", payload: {} }),
    });
    const client = sdk();
    await client.getPage({ pageGroupId: DEMO_IDS.pageGroup, pageId: DEMO_IDS.page });
    await client.getPage({ pageGroupId: DEMO_IDS.pageGroup, pageId: "page_missing" }).catch(() => undefined);
    await client.updateWebhookSubscription({ subscriptionId: DEMO_IDS.subscription, active: true });
    await expect.poll(() => page.locator("#request-log > li").count()).toBe(5);
    // Found by its status badge: a row's time (18:53:10.400) or request ID can hold "400" too.
    const refused = page
      .locator("#request-log li")
      .filter({ has: page.locator(".badge", { hasText: /^400$/ }) })
      .first();
    await refused.locator("summary").click();
    await expect.poll(() => refused.textContent()).toContain("/source");
    await screenshot("console-requests");
    await expectAccessible(page);
  });

  it("the request log filters by operation and status", async () => {
    await page.getByLabel("Operation").selectOption("getPage");
    await expect.poll(() => page.locator("#request-log > li").count()).toBe(2);
    await page.getByLabel("Status").selectOption("4xx");
    await expect.poll(() => page.locator("#request-log > li").count()).toBe(1);
    await page.getByLabel("Operation").selectOption("all");
    await expect.poll(() => page.locator("#request-log > li").count()).toBe(2);
    await page.getByLabel("Status").selectOption("all");
    await expect.poll(() => page.locator("#request-log > li").count()).toBe(5);
  });

  it("publishing a version from the page changes what GET page answers", async () => {
    await openTab("State");
    const name = "Pricing";
    // Every date of the versions table on one line at 1280 px (issue 26.6: they wrapped onto three).
    const lines = await page.locator('.versions td[data-label="Updated"]').evaluateAll((cells) =>
      cells.map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      }),
    );
    expect(lines.length).toBeGreaterThan(0);
    expect(
      lines.every((count) => count === 1),
      `lines per date: ${lines.join(", ")}`,
    ).toBe(true);
    await page.getByRole("button", { name: `Add version to ${name}` }).click();
    // Processing sets the page's computed name: the field starts from it, never from the custom name (issue 26.6).
    expect(await page.getByLabel("Computed name for version 2").inputValue()).toBe("Pricing plans for teams");
    await page.getByLabel("Computed name for version 2").fill("Pricing for every team");
    await page.getByRole("button", { name: "Process" }).click();
    await page.getByRole("button", { name: `Publish version 2 of ${name}` }).click();
    await expect
      .poll(async () => (await sdk().getPage({ pageGroupId: DEMO_IDS.pageGroup, pageId: DEMO_IDS.page })).publishedVersion.versionNumber)
      .toBe(2);
    await page.getByText("v2 published").waitFor();
    await expectAccessible(page);
  });

  it("the publication's delivery reaches the inbox with a valid signature, shown with its attempt and headers; redeliver sends it again", async () => {
    await openTab("Webhooks");
    // The demo's start-up events say why they went nowhere (issue 26.6: "No subscription wanted this event").
    // Newest first: version 2's created and processed events, then the three of the demo's start-up.
    const skipped = (kind: string) => `Not delivered: ${DEMO_IDS.subscription} does not select page.version.${kind}.`;
    await expect
      .poll(() => page.locator(".event .not-delivered").allTextContents())
      .toEqual([
        skipped("processed"),
        skipped("created"),
        `Not delivered: ${DEMO_IDS.subscription} did not exist yet.`,
        skipped("processed"),
        skipped("created"),
      ]);
    const received = page.locator("#inbox-list-demo > li", { hasText: "page.version.published" });
    await received.first().waitFor({ timeout: 20_000 });
    expect(await received.first().textContent()).toContain("signature valid");
    // What the inbox kept verifies with the SDK and the subscription's secret, independently of the server's own check.
    const call = (path: string) => fetch(`${server.url}${path}`, { headers: { "x-api-key": DEFAULT_API_KEY } }).then((r) => r.json());
    const { data: messages } = await call(`/__mock/inbox/${DEMO_IDS.inbox}`);
    const { secret } = await call(`/__mock/webhook_subscriptions/${DEMO_IDS.subscription}/secret`);
    const message = messages.find((m: { event: { type: string } | null }) => m.event?.type === "page.version.published");
    const event = await verifyWebhook({ secret, headers: message.headers, body: message.body });
    expect(event.data).toMatchObject({ pageId: DEMO_IDS.page, versionNumber: 2 });
    // The attempt shows the headers it sent; the signature recomputed on request is the one the inbox received.
    const published = page.locator(".event", { hasText: "page.version.published" }).first();
    await published.locator(".attempts summary").first().click();
    await published.getByRole("button", { name: /^Show signature of attempt 1/ }).click();
    await expect.poll(() => published.locator(".attempts .signature").first().textContent()).toBe(message.headers["webhook-signature"]);
    await screenshot("console-webhooks");
    await expectAccessible(page);
    await published.getByRole("button", { name: /^Redeliver page.version.published/ }).click();
    await expect.poll(() => received.count()).toBe(2);
    await page.getByRole("button", { name: "Run due now" }).click();
  });

  it("a subscription edit goes through PATCH, and the API's field errors show next to the fields", async () => {
    await openTab("State");
    const url = page.getByLabel("URL").first();
    await url.fill("ftp://example.com/hook");
    await page.getByRole("button", { name: "Save" }).first().click();
    const error = page.locator(`#sub-${DEMO_IDS.subscription}-url-error`);
    await error.waitFor();
    expect(await error.textContent()).toMatch(/http/);
    expect(await url.getAttribute("aria-invalid")).toBe("true");
    await url.fill("https://example.com/hooks/new");
    await page.getByRole("button", { name: "Save" }).first().click();
    await expect
      .poll(async () => (await server.api.state.webhookSubscriptions.get(DEMO_IDS.subscription))?.url)
      .toBe("https://example.com/hooks/new");
    await page.getByRole("button", { name: `Show signing secret of ${DEMO_IDS.subscription}` }).click();
    await expect.poll(() => page.locator(".secret-value").textContent()).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Hide" }).click();
    await page.locator("summary", { hasText: "Ada Lovelace" }).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot("console-state");
  });

  it("arming a 503 from the page makes the next SDK call fail with InternalServerError", async () => {
    await openTab("Scenarios");
    await page.getByLabel("Fault", { exact: true }).selectOption("status");
    await page.getByLabel("Status", { exact: true }).fill("503");
    await page.getByRole("button", { name: "Arm fault" }).click();
    await page.locator("#armed-faults li", { hasText: "answer 503" }).waitFor();
    await expectAccessible(page);
    const failure = await sdk()
      .getPage({ pageGroupId: DEMO_IDS.pageGroup, pageId: DEMO_IDS.page })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InternalServerError);
    expect((failure as InternalServerError).status).toBe(503);
    await expect.poll(() => page.locator("#armed-faults li").count()).toBe(0);
    // The fault form is checked by the control API's rules, shown at the field.
    await page.getByLabel("Status", { exact: true }).fill("200");
    await page.getByRole("button", { name: "Arm fault" }).click();
    await page.locator("#fault-status-error").waitFor();
    expect(await page.getByLabel("Status", { exact: true }).getAttribute("aria-invalid")).toBe("true");
  });

  it("an armed status fault shows the Retry-After it sends", async () => {
    await page.getByLabel("Status", { exact: true }).fill("429");
    await page.getByLabel("Retry-After (seconds, optional)").fill("7");
    await page.getByRole("button", { name: "Arm fault" }).click();
    await page.locator("#armed-faults li", { hasText: "answer 429 (Retry-After 7 s) · every operation · 1 more call" }).waitFor();
    await page.getByRole("button", { name: "Clear all faults" }).click();
    await expect.poll(() => page.locator("#armed-faults li").count()).toBe(0);
  });

  it("a fault aimed at one request from the page: only the create from the named source fails", async () => {
    await page.getByLabel("Fault", { exact: true }).selectOption("status");
    await page.getByLabel("Status", { exact: true }).fill("503");
    await page.getByLabel("Retry-After (seconds, optional)").fill("");
    await page.getByLabel("Operation", { exact: true }).selectOption("createProspectLog");
    await page.getByLabel("Only where", { exact: true }).selectOption("source");
    await page.getByLabel("source equals", { exact: true }).fill("crm");
    await page.getByRole("button", { name: "Arm fault" }).click();
    await page.locator("#armed-faults li", { hasText: 'answer 503 · createProspectLog where source = "crm"' }).waitFor();
    await screenshot("console-scenarios");
    await expectAccessible(page);
    expect(await sdk().createProspectLog({ source: "web", payload: {} })).toMatchObject({ createdProspect: true });
    const failure = await sdk()
      .createProspectLog({ source: "crm", payload: {} })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InternalServerError);
    await expect.poll(() => page.locator("#armed-faults li").count()).toBe(0);
    // A field the operation does not have is refused by the control API, shown at the value.
    await page.getByLabel("Operation", { exact: true }).selectOption("updateWebhookSubscription");
    await page.getByLabel("Only where", { exact: true }).selectOption("active");
    await page.getByLabel("active equals", { exact: true }).fill("yes");
    await page.getByRole("button", { name: "Arm fault" }).click();
    await page.locator("#fault-match-value-error").waitFor();
    expect(await page.locator("#fault-match-value-error").textContent()).toContain("is a boolean");
  });

  // Issue 34.8: the card reset every tenant while the console shows one.
  it("resets your tenant from the page, two steps, and only it: the request log empties live, another tenant keeps its data", async () => {
    const other = server.api.isolate();
    const log = server.api.state.prospectLogs.create({ tenantId: other.tenantId, source: "other-tenant", payload: {} });
    await sdk().getPage({ pageGroupId: DEMO_IDS.pageGroup, pageId: DEMO_IDS.page });
    await expect(page.locator("p.note", { hasText: "for your tenant only" }).count()).resolves.toBe(1);
    await page.getByRole("button", { name: "Reset your tenant…" }).click();
    await page.getByRole("button", { name: "Yes, reset your tenant" }).click();
    await expect.poll(() => page.getByRole("tab", { name: /^Requests/ }).textContent()).toBe("Requests");
    const devTenant = server.api.state.defaultTenantId!;
    expect(server.api.tenant(devTenant).requests()).toEqual([]);
    expect(server.api.state.prospectLogs.get(log.prospectLogId, { tenantId: other.tenantId })).toMatchObject({ source: "other-tenant" });
    expect(server.api.state.tenants.get(other.tenantId)).toBeDefined();
  });

  // Issue 32: a key made by POST /__mock/tenants may not reset the server; the console opened with it resets its own tenant, and says so.
  it("opened with a key made by POST /__mock/tenants, the reset acts on that tenant only and says so; the other tenants keep their data", async () => {
    const made = await fetch(`${server.url}/__mock/tenants`, { method: "POST", headers: { "x-api-key": DEFAULT_API_KEY } });
    const { tenantId, apiKey } = (await made.json()) as { tenantId: string; apiKey: string };
    const own = createClient({ apiKey, baseUrl: server.url, maxRetries: 0 });
    await own.createProspectLog({ source: "crm", payload: {}, email: "isolated@example.com" });
    server.api.state.prospects.create({ email: "start@example.com" }); // the start tenant's data (no request: the next test counts the log's rows)
    const other = await browser.newPage({ viewport: DESKTOP });
    try {
      await signIn(other, apiKey);
      await openTab("Scenarios", other);
      await other.locator("#reset-scope").waitFor();
      expect(await other.locator("#reset-scope").textContent()).toContain("for your tenant only");
      await screenshot("console-reset-tenant", other);
      await other.getByRole("button", { name: "Reset your tenant…" }).click();
      await other.getByRole("button", { name: "Yes, reset your tenant" }).click();
      await expect.poll(() => server.api.state.prospectLogs.list({ tenantId }).length).toBe(0);
      expect(await other.getByRole("alert").count()).toBe(0);
      expect(server.api.state.prospects.findByIdentifier({ email: "start@example.com" })).toBeDefined();
    } finally {
      await other.close();
    }
  });

  it("is driven from the keyboard: arrow keys move between the views, Enter opens a request", async () => {
    await page.getByRole("tab", { name: /^Scenarios/ }).focus();
    await page.keyboard.press("ArrowRight");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("tab-requests");
    expect(await page.getByRole("tab", { name: /^Requests/ }).getAttribute("aria-selected")).toBe("true");
    await sdk().getPage({ pageGroupId: DEMO_IDS.pageGroup, pageId: DEMO_IDS.page });
    const summary = page.locator("#request-log > li summary").first();
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("#request-log > li details[open]").count()).toBe(1);
  });

  it("never breaks on stored data it did not create: a near-1 MiB payload, unicode, JSON nested to the limit", async () => {
    let deep: unknown = { bottom: "🌊" };
    // The body is level 1, payload 2, deep 3: 61 wrappers put the bottom object at level 64, the limit.
    for (let level = 0; level < 61; level++) deep = { level, next: deep };
    const payloads = [{ big: "x".repeat(900_000) }, { text: "Ünïcödé ✓ 日本語 עברית 👩🏽‍💻 \u0000 </script><script>alert(1)</script>" }, { deep }];
    for (const payload of payloads) {
      const response = await fetch(`${server.url}/v0/prospect_logs`, {
        method: "POST",
        headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
        body: JSON.stringify({ source: "import ✓", payload, name: "Zoë 👩🏽‍💻 O'Brien", email: "zoe@example.com" }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
    }
    await openTab("Requests");
    const rows = page.locator("#request-log li", { hasText: "/v0/prospect_logs" });
    await expect.poll(() => rows.count()).toBe(3);
    for (const index of [0, 1, 2]) await rows.nth(index).locator("summary").click();
    await page
      .getByRole("button", { name: /Show all \(\d+ kB\)/ })
      .first()
      .waitFor();
    await expect.poll(() => rows.nth(1).textContent()).toContain("</script><script>alert(1)</script>");
    await openTab("State");
    await page.locator("summary", { hasText: "Zoë 👩🏽‍💻 O'Brien" }).click();
    await page.getByText('"bottom": "🌊"').waitFor();
    await openTab("Requests");
  });

  it("stays readable at 390x844, with no serious or critical axe-core violation", async () => {
    const phone = await browser.newPage({ viewport: PHONE });
    try {
      await signIn(phone);
      await phone.locator("#request-log li").first().waitFor();
      await expectAccessible(phone);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot("console-phone", phone);
      await openTab("State", phone);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  });

  it("showed no page error and no console error but the expected refusals", () => {
    expect(problems).toEqual([]);
  });
});
