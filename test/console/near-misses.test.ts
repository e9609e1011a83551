/**
 * The console in Chromium shows why nothing matched: a 404 or 405 row names the route it most
 * likely meant, an unfired matched fault lists its near misses, and "Download HAR" gives the
 * tenant's requests as a HAR 1.2 file without the key. Screenshots: `PROSPECTKIT_UPDATE_SCREENSHOTS=1`
 * writes them to docs/images/.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixtures } from "../../mock/control/fixtures.js";
import { DEFAULT_API_KEY } from "../../mock/core.js";
import { demoFixtures } from "../../mock/server/demo.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { connectChromium } from "../support/chromium.ts";

const IMAGES = resolve(import.meta.dirname, "../../docs/images");

let server: MockServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

async function screenshot(name: string): Promise<void> {
  const image = await page.screenshot({ fullPage: false });
  expect(image.byteLength).toBeGreaterThan(5_000);
  if (process.env["PROSPECTKIT_UPDATE_SCREENSHOTS"] === "1") writeFileSync(resolve(IMAGES, `${name}.png`), image);
}

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  }).then((response) => response.arrayBuffer());

beforeAll(async () => {
  server = await startMockServer({ port: 0, fixtures: (state, { url }) => loadFixtures(state, demoFixtures(url)) });
  browser = await connectChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await send("POST", "/__mock/faults", { kind: "status", status: 503, operation: "createProspectLog", match: { source: "crm" } });
  await send("POST", "/v0/prospect_logs", { source: "web", payload: {} });
  await send("POST", "/v0/prospect_log", { source: "crm", payload: {} });
  await send("GET", "/v0/prospect_logs");
  await page.goto(server.url, { waitUntil: "load" });
  await page.getByText("Live", { exact: true }).waitFor();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe("the console shows near misses", () => {
  it("a 404 row and a 405 row each name the route they most likely meant", async () => {
    await page.getByRole("tab", { name: /^Requests/ }).click();
    const marks = page.locator("#request-log .near-miss");
    await marks.first().waitFor();
    expect(await marks.allTextContents()).toEqual([
      "Did you mean POST /v0/prospect_logs (createProspectLog)? The method was GET, not POST.",
      'Did you mean POST /v0/prospect_logs (createProspectLog)? Path segment 2 was "prospect_log", not "prospect_logs".',
    ]);
    await screenshot("console-near-miss");
  });

  it("an unfired matched fault lists the request that missed it, by field", async () => {
    await page.getByRole("tab", { name: /^Scenarios/ }).click();
    const misses = page.locator("#armed-faults .near-miss");
    await misses.first().waitFor();
    expect(await misses.allTextContents()).toEqual(['Near miss: source was "web", not "crm"']);
    await screenshot("console-fault-near-miss");
  });

  it('"Download HAR" gives the tenant\'s requests as HAR 1.2, without the key', async () => {
    await page.getByRole("tab", { name: /^Requests/ }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download HAR" }).click()]);
    expect(download.suggestedFilename()).toBe("prospectkit-requests.har");
    // The browser is the project's shared one, reached over its endpoint: the file is saved here, not read where Chromium put it.
    const saved = resolve(mkdtempSync(join(tmpdir(), "prospectkit-har-")), "requests.har");
    await download.saveAs(saved);
    const text = readFileSync(saved, "utf8");
    const har = JSON.parse(text) as {
      log: { version: string; entries: { request: { method: string; url: string }; response: { status: number } }[] };
    };
    expect(har.log.version).toBe("1.2");
    expect(har.log.entries.map((entry) => `${entry.request.method} ${entry.request.url.replace(server.url, "")} ${entry.response.status}`)).toEqual([
      "POST /v0/prospect_logs 201",
      "POST /v0/prospect_log 404",
      "GET /v0/prospect_logs 405",
    ]);
    expect(text).not.toContain(DEFAULT_API_KEY);
    expect(problems).toEqual([]);
  });
});
