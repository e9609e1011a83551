/** Runs the ```ts vitest blocks of the docs, written to test/docs/.run/ by examples.test.ts. */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: new URL("../..", import.meta.url).pathname,
    include: ["test/docs/.run/*.example.ts"],
    reporters: ["default"],
  },
});
