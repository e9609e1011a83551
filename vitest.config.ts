import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { buildConsoleAssets } from "./mock/server/console-assets.ts";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

/**
 * The suites that need more than the sources: the built package (dist/), child processes, a
 * browser, a packed tarball or a throw-away install. Everything else is the `fast` project:
 * behaviour, conformance through `api.fetch`, MSW and the server, the SDK (`npm run test:fast`).
 */
const PROJECTS = {
  /** The standalone server as users run it: the built CLI over real HTTP. */
  cli: [
    "test/server/{cli,curl,docs,early-answers,security-data,security-edge,start-script,webhook-control,webhook-delivery}.test.ts",
    "test/abuse/hostile-http.test.ts",
  ],
  /** Every example of the README and the guides, run as written; TSDoc and changesets. */
  docs: ["test/docs/**/*.test.ts"],
  /** The packed tarball, its exports and types, generated clients, msw 2 in a throw-away install. */
  package: [
    "test/package/**/*.test.ts",
    "test/server/{tarball,generated-clients,openapi}.test.ts",
    "test/sdk/type-names.test.ts",
    "test/conformance/msw2.test.ts",
  ],
  /** Real Chromium: the MSW worker, the browser recipe, the console, the attacks a web page can try. */
  browser: ["test/browser/**/*.test.ts", "test/console/console.test.ts", "test/server/security-browser.test.ts"],
};

export default defineConfig({
  // src/version.ts reads package.json's version, as the build writes it in.
  // The server serves the console's assets as the build inlines them (mock/server/console-assets.ts).
  define: { __PROSPECTKIT_VERSION__: JSON.stringify(version), __PROSPECTKIT_CONSOLE__: JSON.stringify(buildConsoleAssets()) },
  test: {
    testTimeout: 20_000,
    // The JSON report lets .ci/run end on a plain "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: "test/.report.json" },
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: Object.values(PROJECTS).flat() } },
      ...Object.entries(PROJECTS).map(([name, include]) => ({ extends: true, test: { name, include } })),
    ],
  },
});
