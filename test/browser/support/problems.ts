/**
 * What a page in Chromium reports as going wrong, collected while a test drives it.
 */
import type { Page } from "playwright-core";

/**
 * Collects the page's uncaught errors and its console messages of the given kinds, each as one
 * line (`page error: …`, `console error: text (url)`), in the order they came.
 *
 * @param tab - the page, before it loads anything
 * @param kinds - the console message types to collect (default: errors only)
 * @returns the list, filled as the page runs
 */
export function collectProblems(tab: Page, kinds: readonly string[] = ["error"]): string[] {
  const problems: string[] = [];
  tab.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  tab.on("console", (message) => {
    if (kinds.includes(message.type())) problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  return problems;
}
