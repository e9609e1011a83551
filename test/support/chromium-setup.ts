/**
 * One Chromium for the browser project (test/projects.ts): a global setup launches Debian's
 * Chromium through playwright-core once, as a server, and every file connects to it
 * (`connectChromium`, test/support/chromium.ts) and opens its own contexts, instead of each file
 * launching a browser of its own. Missing, Chromium fails the run (in CI and outside it); it never
 * skips.
 */
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { CHROMIUM_ARGS } from "../runtimes/chromium.ts";
import { installRuntime } from "../runtimes/install.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The WebSocket endpoint of the project's Chromium (playwright's `launchServer`). */
    chromium: string;
  }
}

/**
 * Launches Chromium and provides its endpoint.
 * @param project - the project whose tests connect through `inject("chromium")`
 * @returns the teardown, which closes the browser
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const installed = installRuntime("chromium");
  if (!installed.ok) throw new TypeError(`the browser tests need Chromium: ${installed.error}`);
  const server = await chromium.launchServer({ executablePath: installed.bin, args: CHROMIUM_ARGS, headless: true });
  project.provide("chromium", server.wsEndpoint());
  return () => server.close();
}
