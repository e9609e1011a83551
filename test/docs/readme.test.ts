/**
 * README.md reads top to bottom in the order the project promises (pitch, install, the two
 * commands, the three quick starts, features, guides, runtimes, development), and every relative
 * link in README.md and docs/*.md points at a file that exists. The examples themselves are run
 * by examples.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain-JavaScript script of the repository, without types
import { repositoryUrl } from "../../scripts/pack.mjs";
import { codeBlocks, markdownFiles, ROOT } from "./markdown.js";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const sections = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);

describe("README.md", () => {
  it("has its sections in the promised order", () => {
    expect(sections).toEqual([
      "Install",
      "Two commands",
      "SDK quick start",
      "Mock quick start",
      "Standalone quick start",
      "Features",
      "Guides and reference",
      "Supported runtimes and msw versions",
      "Development",
    ]);
  });

  it("opens with a one-paragraph pitch before the first section", () => {
    const pitch = readme.slice(readme.indexOf("\n") + 1, readme.indexOf("\n## ")).trim();
    expect(pitch.split(/\n\s*\n/)).toHaveLength(1);
    expect(readme).not.toMatch(/Status: early/);
  });

  it("gives the two commands: npm ci && npm start, then npm ci && npm test", () => {
    const [commands] = codeBlocks("README.md").filter((block) => block.heading === "Two commands");
    expect(commands?.code.split("\n").map((line) => line.replace(/\s+#.*$/, ""))).toEqual(["npm ci && npm start", "npm ci && npm test", ""]);
  });

  it("has the SDK quick start, both mock quick starts (api.fetch and MSW) and curl and Python for the server", () => {
    const blocksUnder = (heading: string) => codeBlocks("README.md").filter((block) => block.heading === heading);
    expect(blocksUnder("SDK quick start").map((block) => block.language)).toEqual(["sh", "ts"]);
    expect(blocksUnder("Mock quick start").map((block) => block.code.includes("fetch: api.fetch") || block.code.includes("setupServer"))).toEqual([
      true,
      true,
    ]);
    expect(blocksUnder("Standalone quick start").map((block) => block.language)).toEqual(["sh", "python"]);
  });
});

describe("the MSW quick start in the browser (issue 34.4)", () => {
  const BROWSER_FORM = 'unhandledRequests("error", { within: api.baseUrl })';
  it("shows setupWorker with the strategy limited to the mock's URL, and says why", () => {
    const [, msw] = codeBlocks("README.md").filter((block) => block.heading === "Mock quick start");
    const worker = msw!.code.split("\n").find((line) => line.includes("setupWorker("));
    expect(worker).toContain(BROWSER_FORM);
    expect(readme).toMatch(/In the browser, msw's service worker also sees the page's own navigation/);
  });

  it("is the form the browser recipe uses, which the browser tests run in Chromium", () => {
    const recipe = codeBlocks("docs/testing.md").filter((block) => block.code.includes("setupWorker("));
    expect(recipe.length).toBeGreaterThan(0);
    for (const block of recipe) expect(block.code).toContain(BROWSER_FORM);
  });
});

describe("links", () => {
  it("README.md links the source repository and its issue tracker, as package.json names them", () => {
    const repository: string = repositoryUrl(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")));
    expect(readme).toContain(`[the source repository](${repository})`);
    expect(readme).toContain(`(${repository}/issues)`);
    expect(readme).not.toMatch(/source repository(?!\])/);
  });

  it.each(markdownFiles())("every relative link in %s exists", (file) => {
    const text = readFileSync(join(ROOT, file), "utf8");
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
    const missing = targets.filter((target) => !existsSync(join(ROOT, dirname(file), target)));
    expect(missing).toEqual([]);
  });
});
