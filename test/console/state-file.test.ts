/**
 * The console says when the server's state file stops taking writes and when it takes them again
 * (the `state-file` change of the live feed): an alert naming the file and the reason, then a
 * status line, without a reload. The disk is the state file's fs seam, filled and freed by the test.
 *
 * `PROSPECTKIT_UPDATE_SCREENSHOTS=1` writes the screenshot it takes to docs/images/.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFixtures } from "../../mock/control/fixtures.js";
import { DEFAULT_API_KEY } from "../../mock/core.js";
import { demoFixtures } from "../../mock/server/demo.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { createDisk } from "../server/support/disk.js";
import { connectChromium } from "../support/chromium.ts";
import { seriousViolations } from "./browser.ts";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-console-state-"));
const path = join(dir, "state.jsonl");
const disk = createDisk();
let server: MockServer;
let browser: Browser;

beforeAll(async () => {
  disk.on(path);
  server = await startMockServer({
    port: 0,
    stateFile: path,
    onStateFileNotice: () => {},
    webhooks: { deliver: false },
    fixtures: (state, { url }) => loadFixtures(state, demoFixtures(url)),
  });
  browser = await connectChromium();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  disk.restore();
  rmSync(dir, { recursive: true, force: true });
});

const create = () =>
  fetch(`${server.url}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": DEFAULT_API_KEY, "content-type": "application/json" },
    body: JSON.stringify({ source: "crm", payload: {} }),
  });

describe("the console and the state file", { timeout: 60_000 }, () => {
  it("shows an alert while writes are refused and a status once they are taken again", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // The server accepts the development key: the console opens straight on the data with it.
    await page.goto(server.url, { waitUntil: "load" });
    await page.getByText("Live", { exact: true }).waitFor();

    disk.fillAt("append");
    expect((await create()).status).toBe(503);
    const alert = page.getByRole("alert").filter({ hasText: "state file" });
    await expect.poll(() => alert.textContent()).toContain("cannot write it (ENOSPC");
    expect(await alert.textContent()).toContain(path);
    expect(await page.content()).not.toContain(DEFAULT_API_KEY);
    const image = await page.screenshot();
    if (process.env["PROSPECTKIT_UPDATE_SCREENSHOTS"] === "1")
      writeFileSync(resolve(import.meta.dirname, "../../docs/images/console-state-file.png"), image);
    expect(await seriousViolations(page)).toEqual([]);

    disk.free();
    expect((await create()).status).toBe(201);
    await expect.poll(() => page.getByRole("status").filter({ hasText: "state file" }).textContent()).toContain("written again");
    expect(await page.getByRole("alert").filter({ hasText: "state file" }).count()).toBe(0);
  });
});
