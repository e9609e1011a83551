/**
 * The browser recipe of docs/testing.md, run as written in a real app, under msw 3 and msw 2: its
 * three `app: <path>` blocks (the mock module, the entry, vite.config.ts) plus a small app
 * (`app/app.ts`) in a project that installed the packed package and that msw, served by Vite's
 * dev server to headless Chromium (Debian's build, driven by playwright-core). The app renders,
 * a click deactivates a subscription, DevTools' `mockApi` arms a fault that the UI shows as the
 * SDK's typed error, a reload renders again with the mock's state kept (`persistState`), and an
 * edit of the app reaches the page through Vite's HMR socket. `tsc` type-checks the project
 * (strict), and a production `vite build` has no mock, no msw and no worker file, while a
 * development build of the same project has the mock and msw (so the markers looked for are the right ones).
 * Without Chromium the test fails (in CI and outside it); it never skips. Needs `npm run build`
 * first (the package is packed from dist/), as `npm test` does.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MSW_PINS } from "../runtimes/runtimes.ts";
import { connectChromium } from "../support/chromium.ts";
import { createAppProject, recipeBlocks, removeProject, startDevServer, typeCheck, viteBuild } from "./support/app-project.ts";
import { collectProblems } from "./support/problems.ts";

/** What the app showed at one moment, and what the mock held. */
interface Seen {
  readonly page: string;
  readonly subscription: string;
  readonly error: string;
  readonly title: string;
  /** `mockApi.state.webhookSubscriptions.get("whsub_browser").active`, read as DevTools would. */
  readonly active: boolean | undefined;
  /** `mockApi.requests.list()`, as "METHOD path status". */
  readonly requests: readonly string[];
  readonly worker: string;
}

/** Everything one msw major's run found out. */
interface Outcome {
  readonly typeErrors: string;
  readonly first: Seen;
  readonly afterClick: Seen;
  readonly afterFault: Seen;
  readonly afterReload: Seen;
  readonly afterEdit: Seen;
  readonly problems: readonly string[];
  readonly production: Built;
  readonly development: Built;
}

/** A build's files (relative paths) and its JavaScript, joined. */
interface Built {
  readonly files: readonly string[];
  readonly script: string;
  readonly gzipBytes: number;
}

/** Strings only the mock (its code, or the recipe's mock module) and msw put into a bundle. */
// Strings only the mock's code holds: persistState's check of a saved state, its format line, the recipe's tenant.
const MOCK_MARKERS = ["refused to restore the state", "prospectkit/mock state", "tenant_browser"];
const MSW_MARKERS = ["[MSW]", "mockServiceWorker", "setupWorker"];

function readBuild(dir: string): Built {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
  const script = files
    .filter((file) => file.endsWith(".js"))
    .map((file) => readFileSync(join(dir, file), "utf8"))
    .join("\n");
  return { files, script, gzipBytes: gzipSync(script).length };
}

/** Reads the app and, through `window.mockApi` (the recipe's DevTools line), the mock. */
async function look(tab: Page): Promise<Seen> {
  const text = async (selector: string) => ((await tab.locator(selector).textContent()) ?? "").trim();
  const [page, subscription, error, title] = [await text("#page"), await text("#subscription"), await text("#error"), await text("#title")];
  const mock = await tab.evaluate(() => {
    type Mock = {
      state: { webhookSubscriptions: { get(id: string): { active: boolean } | undefined } };
      requests: { list(): { method: string; path: string; status: number }[] };
    };
    const api = (window as unknown as { mockApi: Mock }).mockApi;
    return {
      active: api.state.webhookSubscriptions.get("whsub_browser")?.active,
      requests: api.requests.list().map((request) => `${request.method} ${request.path} ${request.status}`),
      worker: new URL(navigator.serviceWorker.controller?.scriptURL ?? "about:blank").pathname,
    };
  });
  return { page, subscription, error, title, ...mock };
}

/** Opens the app, drives it as a developer would, and reads it at each step. */
async function driveApp(url: string, dir: string): Promise<Omit<Outcome, "typeErrors" | "production" | "development">> {
  const browser = await connectChromium();
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const problems = collectProblems(tab, ["error", "warning"]);
    const rendered = (name: string) =>
      tab
        .waitForFunction((text) => document.querySelector("#page")?.textContent === text, name, { timeout: 60_000 })
        .catch(async (error: unknown) => {
          const shown = await tab.evaluate(() => document.body?.innerText ?? document.documentElement.outerHTML).catch(String);
          throw new TypeError(`the app did not render "${name}" (${String(error)}); the page shows:\n${shown.slice(0, 500)}`);
        });
    await tab.goto(url);
    await rendered("Pricing");
    const first = await look(tab);

    await tab.click("#deactivate");
    await tab.waitForFunction(() => document.querySelector("#subscription")?.textContent === "inactive");
    const afterClick = await look(tab);

    // DevTools: arm one 503 for the next call; the UI shows it at once (maxRetries: 0).
    await tab.evaluate(() => (window as unknown as { mockApi: { faults: { status(code: number): void } } }).mockApi.faults.status(503));
    await tab.click("#refresh");
    await tab.waitForFunction(() => document.querySelector("#error")?.textContent !== "");
    const afterFault = await look(tab);

    await tab.reload();
    await rendered("Pricing");
    const afterReload = await look(tab);

    // An edit of the app: Vite tells the page over its HMR socket, and the page loads the new code.
    const app = join(dir, "src/app.ts");
    writeFileSync(app, readFileSync(app, "utf8").replace('<h1 id="title">Pages</h1>', '<h1 id="title">Pages, edited</h1>'));
    await tab.waitForFunction(() => document.querySelector("#title")?.textContent === "Pages, edited", undefined, { timeout: 60_000 });
    await rendered("Pricing");
    const afterEdit = await look(tab);
    return { first, afterClick, afterFault, afterReload, afterEdit, problems };
  } finally {
    await browser.close();
  }
}

const PAGE_READ = "GET /v0/page_groups/pagegroup_browser/pages/page_browser";

describe.each([
  ["msw 3", MSW_PINS[3]],
  ["msw 2", MSW_PINS[2]],
])("the browser recipe of docs/testing.md in a Vite app, with %s", (_, msw) => {
  const scratch = join(tmpdir(), `prospectkit-app-recipe-${process.pid}-${msw}`);
  let project: string | undefined;
  let outcome: Outcome;

  beforeAll(async () => {
    project = createAppProject(inject("tarball"), msw);
    const typeErrors = await typeCheck(project);
    const server = await startDevServer(project);
    let driven: Awaited<ReturnType<typeof driveApp>>;
    try {
      driven = await driveApp(server.url, project);
    } catch (error) {
      throw new TypeError(`${error instanceof Error ? error.message : String(error)}\nvite printed:\n${server.output()}`);
    } finally {
      await server.stop();
    }
    await viteBuild(project, join(scratch, "production"));
    await viteBuild(project, join(scratch, "development"), "development");
    outcome = { typeErrors, ...driven, production: readBuild(join(scratch, "production")), development: readBuild(join(scratch, "development")) };
    const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
    console.info(
      `${msw}: app JavaScript gzipped ${kB(outcome.production.gzipBytes)} in production, ${kB(outcome.development.gzipBytes)} with the mock`,
    );
  }, 600_000);
  afterAll(() => {
    removeProject(project);
    rmSync(scratch, { recursive: true, force: true });
  });

  it("takes the recipe's three files from docs/testing.md", () => {
    expect(recipeBlocks().map((block) => block.app)).toEqual(["src/mocks/browser.ts", "src/main.ts", "vite.config.ts"]);
  });

  it("type-checks under strict TypeScript with this msw's types", () => {
    expect(outcome.typeErrors).toBe("");
  });

  it("renders through the worker that the dev server serves from the installed msw", () => {
    expect(outcome.first).toMatchObject({ page: "Pricing", error: "", worker: "/mockServiceWorker.js", active: true });
    expect(outcome.first.requests).toEqual([`${PAGE_READ} 200`]);
  });

  it("a click deactivates the subscription in the mock", () => {
    expect(outcome.afterClick).toMatchObject({ subscription: "inactive", active: false });
  });

  it("a fault armed from DevTools (mockApi.faults) is the typed error the UI shows, not retried", () => {
    expect(outcome.afterFault.error).toBe("InternalServerError 503");
    expect(outcome.afterFault.requests.slice(-1)).toEqual([`${PAGE_READ} 503`]);
  });

  it("a reload renders the app again, with the mock's state kept and a fresh request log", () => {
    expect(outcome.afterReload).toMatchObject({ page: "Pricing", error: "", active: false, worker: "/mockServiceWorker.js" });
    expect(outcome.afterReload.requests).toEqual([`${PAGE_READ} 200`]);
  });

  it("an edit of the app reaches the page through the dev server's HMR socket, the state still kept", () => {
    expect(outcome.afterEdit).toMatchObject({ title: "Pages, edited", page: "Pricing", active: false });
  });

  it("prints no page error, and no console error or warning but Chromium's note of the armed 503", () => {
    const armed = `console error: Failed to load resource: the server responded with a status of 503 () (https://api.prospectkit.test${PAGE_READ.slice(4)})`;
    expect(outcome.problems).toEqual([armed]);
  });

  it("a production build has no mock, no msw and no worker file; a development build has the mock and msw (the markers find them)", () => {
    const found = (built: Built) => [...MOCK_MARKERS, ...MSW_MARKERS].filter((marker) => built.script.includes(marker));
    expect(found(outcome.production)).toEqual([]);
    expect(outcome.production.files.filter((file) => file.includes("mockServiceWorker"))).toEqual([]);
    expect(found(outcome.development)).toEqual([...MOCK_MARKERS, ...MSW_MARKERS]);
    expect(outcome.production.script).toContain("api.prospectkit.test"); // the app itself, with the SDK, is there
  });
});
