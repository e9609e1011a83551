import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

// The runtime matrix (`npm run test:runtimes`): its own config, so `npm test` does not run it.
// Its files end in `.matrix.ts`, which the default config's `test/**/*.test.ts` does not match.
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, "../.."),
    include: ["test/runtimes/**/*.matrix.ts"],
    globalSetup: ["test/runtimes/global-setup.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    reporters: ["default", "./test/runtimes/summary-reporter.ts"],
  },
});
