/**
 * The attacks BEHAVIOUR.md's "The standalone server on a developer's machine" closes, tried in a
 * real browser (Debian's Chromium; missing, the test fails, never skips) against the CLI:
 * - DNS rebinding: a name the attacker controls resolves to 127.0.0.1 (a host-resolver rule stands
 *   in for the rebinding DNS server), so the attacker's page is same-origin with the server;
 * - a cross-origin page on another port, not loopback-named, calling the server with the published
 *   development key.
 * Neither can read a secret or change anything; a page on a loopback origin (the developer's own
 * app) and /v0 from any page still work.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_ARGS } from "../runtimes/chromium.ts";
import { installRuntime } from "../runtimes/install.ts";
import { type CliProcess, startCli } from "./support/cli-process.js";

const KEY = "mock_api_key";
const SECRET_ROUTE = "/__mock/webhook_subscriptions/webhooksubscription_demo/secret";
const REBOUND = "rebind.test";
const ATTACKER = "attacker.test";

let cli: CliProcess;
let pages: Server;
let browser: Browser;
let port: string;
let pagePort: number;

/** What the demo tenant holds (its secret and its logs), read from Node: the browser must change none of it. */
async function demoState(): Promise<string> {
  const headers = { "x-api-key": KEY };
  const secret = await (await fetch(`${cli.url}${SECRET_ROUTE}`, { headers })).text();
  const logs = await (await fetch(`${cli.url}/__mock/prospect_logs`, { headers })).text();
  return secret + logs;
}

/** Runs `fetch` in the page (with the page's origin) and says what came of it. */
function fetchIn(
  page: Page,
  url: string,
  init: { method?: string; body?: string } = {},
): Promise<{ status: number; text: string } | { blocked: string }> {
  return page.evaluate(
    async ([target, method, body, key]) => {
      try {
        const response = await fetch(target!, {
          method: method!,
          headers: { "x-api-key": key!, ...(body === "" ? {} : { "content-type": "application/json" }) },
          ...(body === "" ? {} : { body: body! }),
        });
        return { status: response.status, text: await response.text() };
      } catch (error) {
        return { blocked: String(error) };
      }
    },
    [url, init.method ?? "GET", init.body ?? "", KEY],
  );
}

beforeAll(async () => {
  cli = await startCli(["--port", "0", "--quiet", "--no-webhooks"]);
  port = new URL(cli.url).port;
  // The attacker's (and the developer's) pages: an empty document on another port.
  pages = createServer((_, response) => response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>page</title>"));
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  pagePort = (pages.address() as AddressInfo).port;
  // A browser of its own, not the project's shared one (test/support/chromium.ts): the foreign
  // names resolve to 127.0.0.1 through a launch flag, which holds for the whole browser.
  const installed = installRuntime("chromium");
  if (!installed.ok) throw new TypeError(`this test needs Chromium: ${installed.error}`);
  browser = await chromium.launch({
    executablePath: installed.bin,
    headless: true,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1, MAP ${ATTACKER} 127.0.0.1`],
  });
  // A log of the demo tenant's: a reset would take it away.
  await fetch(`${cli.url}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify({ source: "crm", payload: {} }),
  });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  pages?.close();
  await cli?.stop();
});

describe("in Chromium: no web page can drive the mock", () => {
  it("DNS rebinding: a foreign name resolved to 127.0.0.1 gets neither the console nor the secret route, and resets nothing", async () => {
    const before = await demoState();
    const page = await browser.newPage();
    try {
      const console = await page.goto(`http://${REBOUND}:${port}/__mock/console`);
      expect(console?.status()).toBe(403);
      expect(await page.textContent("body")).toContain("host_not_allowed");
      // Now same-origin with the server by name: every request carries Host: rebind.test.
      const secret = await fetchIn(page, SECRET_ROUTE);
      expect(secret).toMatchObject({ status: 403 });
      expect(JSON.stringify(secret)).not.toContain("whsec_");
      expect(await fetchIn(page, "/__mock/reset", { method: "POST" })).toMatchObject({ status: 403 });
      expect(await fetchIn(page, "/v0/page_groups/pagegroup_demo/pages/page_demo")).toMatchObject({ status: 403 });
    } finally {
      await page.close();
    }
    expect(await demoState()).toBe(before);
  });

  it("a cross-origin page on another port, not loopback-named, cannot read or change the controls; /v0 still answers it", async () => {
    const before = await demoState();
    const page = await browser.newPage();
    try {
      await page.goto(`http://${ATTACKER}:${pagePort}/`);
      const secret = await fetchIn(page, `http://127.0.0.1:${port}${SECRET_ROUTE}`);
      expect(secret).toHaveProperty("blocked");
      const reset = await fetchIn(page, `http://127.0.0.1:${port}/__mock/reset`, { method: "POST" });
      expect(reset).toHaveProperty("blocked");
      const fault = await fetchIn(page, `http://127.0.0.1:${port}/__mock/faults`, { method: "POST", body: '{"kind":"status","status":503}' });
      expect(fault).toHaveProperty("blocked");
      const api = await fetchIn(page, `http://127.0.0.1:${port}/v0/page_groups/pagegroup_demo/pages/page_demo`);
      expect(api).toMatchObject({ status: 200 });
    } finally {
      await page.close();
    }
    expect(await demoState()).toBe(before);
    expect((await (await fetch(`${cli.url}/__mock/faults`, { headers: { "x-api-key": KEY } })).json()).data).toEqual([]);
  });

  it("a page on a loopback origin (the developer's own app) reads the control API", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`http://localhost:${pagePort}/`);
      const secret = await fetchIn(page, `http://127.0.0.1:${port}${SECRET_ROUTE}`);
      expect(secret).toMatchObject({ status: 200 });
      expect(JSON.stringify(secret)).toContain("whsec_");
    } finally {
      await page.close();
    }
  });
});
