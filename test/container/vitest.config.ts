import { resolve } from "node:path";
import { defineConfig } from "vitest/config";

// The container test (`npm run test:container`, run by .ci/run): its own config, so `npm test`
// does not run it. Its files end in `.container.ts`, which the default config does not match.
export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, "../.."),
    include: ["test/container/**/*.container.ts"],
    globalSetup: ["test/container/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
