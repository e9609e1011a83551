import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";
import { buildConsoleAssets } from "./mock/server/console-assets.ts";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  // src/version.ts reads package.json's version, as the build writes it in.
  // The server serves the console's assets as the build inlines them (mock/server/console-assets.ts).
  define: { __PROSPECTKIT_VERSION__: JSON.stringify(version), __PROSPECTKIT_CONSOLE__: JSON.stringify(buildConsoleAssets()) },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    // The JSON report lets .ci/run end on a plain "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: "test/.report.json" },
  },
});
