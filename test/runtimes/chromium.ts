/**
 * Runs a bundled scenario in headless Chromium (Debian's build, driven by playwright-core): a
 * loopback http server on port 0 serves a page that loads the bundle as an ES module, and the
 * harness reads the result the bundle leaves in `globalThis.__scenario`.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { bundleEntry } from "./entries.ts";

/** The flags Chromium runs with here: headless, as root, without a GPU or network chatter. */
export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];

/** The export conditions a browser bundler resolves packages with. */
export const BROWSER_CONDITIONS = ["browser"];

/**
 * Bundles the entry, opens it in a page and returns what the scenario produced.
 *
 * @param bin - the Chromium binary
 * @param dir - the consumer project holding the entry
 * @param entry - the browser entry's file name inside `dir`
 * @returns the scenario's result
 * @throws TypeError when the page fails, the scenario throws, or no result comes within 60 s
 */
export async function runInChromium(bin: string, dir: string, entry: string): Promise<unknown> {
  const bundle = await bundleEntry(dir, entry, BROWSER_CONDITIONS);
  const page = `<!doctype html><meta charset="utf-8"><title>prospectkit runtime matrix</title><script type="module" src="/${bundle}"></script>`;
  const server = createServer((request, response) => {
    if (request.url === "/") response.writeHead(200, { "content-type": "text/html" }).end(page);
    else if (request.url === `/${bundle}`) response.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(join(dir, bundle)));
    else response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const browser = await chromium.launch({ executablePath: bin, args: CHROMIUM_ARGS, headless: true });
  try {
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    tab.on("console", (message) => {
      if (message.type() === "error") problems.push(`console error: ${message.text()}`);
    });
    await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const handle = await tab
      .waitForFunction(() => (globalThis as { __scenario?: unknown }).__scenario, undefined, { timeout: 60_000 })
      .catch((error: unknown) => {
        throw new TypeError(`the page produced no result: ${String(error)}\n${problems.join("\n")}`);
      });
    const outcome = (await handle.jsonValue()) as { result?: unknown; error?: string };
    if (outcome.error !== undefined) throw new TypeError(`the scenario threw in Chromium:\n${outcome.error}\n${problems.join("\n")}`);
    return outcome.result;
  } finally {
    await browser.close();
    await new Promise((done) => server.close(done));
  }
}
