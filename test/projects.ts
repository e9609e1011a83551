import { availableParallelism } from "node:os";

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

/** The cores vitest shares out (what `availableParallelism` reports: 2 on the machine the targets are set for). */
const CORES = availableParallelism();

/** A project's options beyond its files: how many of its files run at once, and in which group. */
export interface ProjectOptions {
  /** Files at once (each in its own worker). */
  readonly maxWorkers: number;
  /** Vitest runs the groups one after another, a group's projects side by side; every project of a group has the same `maxWorkers`. */
  readonly sequence: { readonly groupOrder: number };
  /** Tests of one file at once, in a `describe.concurrent` (Vitest's default is 5). */
  readonly maxConcurrency?: number;
  readonly pool?: "threads" | "forks";
  /** `false`: a worker runs file after file in one module graph (imported once), as `npm run test:fast` always has. */
  readonly isolate?: boolean;
  readonly globalSetup?: string[];
}

/**
 * The projects that run from the sources, in process: a worker per core, each running file after
 * file in one module graph (`npm run test:fast` measured 59 s with vitest's default of one worker
 * on 2 cores, 34 s with two; four add nothing but contention: their tests compute as much as they
 * wait).
 */
const IN_PROCESS = { maxWorkers: CORES, sequence: { groupOrder: 0 }, pool: "threads", isolate: false } as const;

/**
 * Projects whose tests mostly wait (on a spawned CLI starting and answering over sockets): twice as
 * many workers as cores, so one file computes while another waits.
 */
const WAITING = { maxWorkers: 2 * CORES, sequence: { groupOrder: 1 } } as const;

/** Projects whose tests mostly compute (tsc, npm installs, bundlers, Chromium): one worker per core. */
const COMPUTING = { maxWorkers: CORES, sequence: { groupOrder: 2 } } as const;

/** The projects that install the packed tarball pack it once for the run, in a global setup they share (`inject("tarball")`). */
const TARBALL = { globalSetup: ["test/support/tarball-setup.ts"] };

/** The options of each project, `fast` included. */
export const PROJECT_OPTIONS: Readonly<Record<"fast" | keyof typeof PROJECTS, ProjectOptions>> = {
  fast: IN_PROCESS,
  /** 50 tests of the isolation suite at once, each with its own tenant (Vitest's default runs 5). */
  concurrent: { ...IN_PROCESS, maxConcurrency: 50 },
  cli: WAITING,
  docs: { ...COMPUTING, ...TARBALL },
  package: { ...COMPUTING, ...TARBALL },
  /** One Chromium for the project, launched by its global setup; each file connects and opens its contexts. */
  browser: { ...COMPUTING, globalSetup: [...TARBALL.globalSetup, "test/support/chromium-setup.ts"] },
};

/** The projects `npm run test:fast` runs: everything that runs from the sources. */
export const FAST_PROJECTS = ["fast", "concurrent"] as const;
