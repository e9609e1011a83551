import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { buildConsoleAssets } from "./mock/server/console-assets.ts";
import { PROJECT_OPTIONS, PROJECTS } from "./test/projects.ts";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  // src/version.ts reads package.json's version, as the build writes it in.
  // The server serves the console's assets as the build inlines them (mock/server/console-assets.ts).
  define: {
    __PROSPECTKIT_VERSION__: JSON.stringify(version),
    __PROSPECTKIT_CONSOLE__: JSON.stringify(buildConsoleAssets()),
  },
  test: {
    testTimeout: 20_000,
    // The JSON report lets .ci/run end on a plain "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: "test/.report.json" },
    projects: [
      { extends: true, test: { name: "fast", include: ["test/**/*.test.ts"], exclude: Object.values(PROJECTS).flat(), ...PROJECT_OPTIONS.fast } },
      ...Object.entries(PROJECTS).map(([name, include]) => ({
        extends: true,
        test: { name, include, ...PROJECT_OPTIONS[name as keyof typeof PROJECTS] },
      })),
    ],
  },
});
