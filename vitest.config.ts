import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    // The JSON report lets .ci/run end on a plain "N passed, N failed" line.
    reporters: ["default", "json"],
    outputFile: { json: "test/.report.json" },
  },
});
