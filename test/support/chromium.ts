/**
 * A browser test's Chromium: a connection to the one the browser project launched
 * (test/support/chromium-setup.ts). A file connects once and opens a context per page it needs;
 * closing the connection closes its contexts and leaves the browser to the other files.
 */
import { type Browser, chromium } from "playwright-core";
import { inject } from "vitest";

/** Connects to the project's Chromium. */
export function connectChromium(): Promise<Browser> {
  return chromium.connect(inject("chromium"));
}
