/**
 * The suites that need more than the sources: the built package (dist/), child processes, a
 * browser, a packed tarball or a throw-away install. Everything else is the `fast` project:
 * behaviour, conformance through `api.fetch`, MSW and the server, the SDK (`npm run test:fast`).
 */
export const PROJECTS = {
  /** The standalone server as users run it: the built CLI over real HTTP. */
  cli: [
    "test/server/{cli,curl,delivery-resources,docs,early-answers,proxy-cli,security-data,security-edge,start-script,state-file-cli,verify,webhook-control,webhook-delivery}.test.ts",
    // The state file at its edges: a container restart and a real full disk (root), a state larger than one string (disk-bound).
    "test/server/state-file-{container,size}.test.ts",
    "test/abuse/hostile-http.test.ts",
    "test/verify/{mutation,request-set}.test.ts",
  ],
  /** Every example of the README and the guides, run as written; TSDoc and changesets. */
  docs: ["test/docs/**/*.test.ts"],
  /** The packed tarball, its exports and types, generated clients, msw 2 in a throw-away install. */
  package: [
    "test/package/**/*.test.ts",
    "test/server/{tarball,generated-clients,openapi}.test.ts",
    "test/sdk/type-names.test.ts",
    "test/conformance/msw2.test.ts",
    "test/verify/prism.test.ts",
  ],
  /** Real Chromium: the MSW worker, the browser recipe, the console, the attacks a web page can try. */
  browser: ["test/browser/**/*.test.ts", "test/console/{console,state-file,near-misses}.test.ts", "test/server/security-browser.test.ts"],
  /**
   * Suites that need many tests of one file at once (see {@link PROJECT_OPTIONS}). Their own
   * project, because Vitest fixes a worker's concurrency limit when the worker starts its first
   * file: set from inside a file (`vi.setConfig`), it holds only where that file happens to run
   * first, and `npm run test:fast` reuses workers across files. Workers are never shared between
   * projects, so a project's own `maxConcurrency` always holds. From the sources, no build: part of
   * `npm run test:fast`.
   */
  concurrent: ["test/mock/isolation.test.ts"],
};

/** Options of a project beyond its files. */
export const PROJECT_OPTIONS: Partial<Record<keyof typeof PROJECTS, { readonly maxConcurrency?: number }>> = {
  /** 50 tests of the isolation suite at once, each with its own tenant (Vitest's default runs 5). */
  concurrent: { maxConcurrency: 50 },
};

/** The projects `npm run test:fast` runs: everything that runs from the sources. */
export const FAST_PROJECTS = ["fast", "concurrent"] as const;
