/**
 * The throw-away project the msw 2 conformance run happens in: the packed tarball plus msw 2
 * installed from npm, the suite bundled into it as one test file, and the repository's vitest
 * run there as a child process. Helpers only; `../msw2.test.ts` holds the assertions.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import * as esbuild from "esbuild";
import { installIntoEmptyProject } from "../../package/pack.ts";
import { runToEnd } from "../../runtimes/processes.ts";
import { MSW_PINS } from "../../runtimes/runtimes.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

/** The repository's vitest: its folder and its command-line script. */
const VITEST_DIR = dirname(createRequire(import.meta.url).resolve("vitest/package.json"));
const VITEST_BIN = join(VITEST_DIR, "vitest.mjs");

/** The file name of the bundled suite in the project (vitest's default `include` matches it). */
export const SUITE_BUNDLE = "conformance-msw2.test.mjs";

/**
 * The source entries the package exports, by the specifier a consumer imports them with. Every
 * other module under `src/` or `mock/` must not end up in the bundle.
 */
const PACKED_ENTRIES = new Map([
  [join(ROOT, "mock/index.ts"), "prospectkit/mock"],
  [join(ROOT, "src/index.ts"), "prospectkit"],
  [join(ROOT, "src/schemas/index.ts"), "prospectkit"],
]);

/**
 * The contract rules (mock/verify/) are the suite's own cases, shipped for `prospectkit-mock verify`
 * rather than exported: they are bundled with the test code, with what they import from src/
 * (the spec's schemas still come from the package, through its entry).
 */
const CONTRACT_RULES_DIR = join(ROOT, "mock/verify");

/**
 * An esbuild plugin that takes the code under test from the packed package: a relative import of
 * a source entry becomes an external import of the package, and any other source module is an
 * error (but for the contract rules and what they import), so only the test code itself is bundled.
 */
const fromPackedPackage: esbuild.Plugin = {
  name: "from-packed-package",
  setup(build) {
    const ofTheRules = new Set<string>();
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = resolve(args.resolveDir, args.path).replace(/\.js$/, ".ts");
      const packed = PACKED_ENTRIES.get(path);
      if (packed !== undefined) return { path: packed, external: true };
      const inSource = ["src", "mock"].some((dir) => !relative(join(ROOT, dir), path).startsWith(".."));
      if (!relative(CONTRACT_RULES_DIR, path).startsWith("..") || ofTheRules.has(args.importer)) {
        ofTheRules.add(path);
        return undefined;
      }
      if (inSource)
        return {
          errors: [
            { text: `${relative(ROOT, path)} is not an entry of the package: import it from ${[...new Set(PACKED_ENTRIES.values())].join(" or ")}` },
          ],
        };
      return undefined;
    });
  },
};

/**
 * Bundles the msw 2 suite entry into one ES module whose packages under test (`prospectkit`, `msw`,
 * `vitest`) stay imports, resolved where the bundle lies; test-only helpers (fast-check) are bundled in.
 *
 * @param outfile - where to write the bundle
 */
export async function bundleSuite(outfile: string): Promise<void> {
  await esbuild.build({
    entryPoints: [join(import.meta.dirname, "suite.entry.ts")],
    outfile,
    bundle: true,
    external: ["prospectkit", "prospectkit/*", "msw", "msw/*", "vitest"],
    plugins: [fromPackedPackage],
    format: "esm",
    platform: "node",
    target: "node24",
    logLevel: "error",
  });
}

/**
 * Creates the throw-away project: the packed tarball plus msw 2 (the pinned newest 2.x), the
 * repository's vitest linked in (so the bundle's `vitest` is the runner's own), and the suite.
 *
 * @param tarball - the packed package
 * @returns the project's folder
 */
export async function createMsw2Project(tarball: string): Promise<string> {
  const dir = installIntoEmptyProject(tarball, [MSW_PINS[2]]);
  symlinkSync(VITEST_DIR, join(dir, "node_modules", "vitest"), "dir");
  await bundleSuite(join(dir, SUITE_BUNDLE));
  return dir;
}

/** The part of vitest's JSON report the tests read. */
export interface VitestReport {
  readonly numTotalTests: number;
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests: number;
  readonly testResults: readonly {
    readonly name: string;
    readonly assertionResults: readonly { readonly ancestorTitles: readonly string[]; readonly title: string; readonly status: string }[];
  }[];
}

/**
 * Runs the repository's vitest (on this Node) in a child process with the given root and files,
 * and returns its JSON report. The child gets the environment without the parent run's VITEST*
 * variables, so it starts as a run of its own.
 *
 * @param root - vitest's `--root`
 * @param files - file filters (relative to the root)
 * @param extra - more command-line arguments
 * @returns the report
 * @throws TypeError, with the child's output, when a test fails or the run does not end in 3 min
 */
export async function runVitest(root: string, files: readonly string[], extra: readonly string[] = []): Promise<VitestReport> {
  const out = mkdtempSync(join(tmpdir(), "prospectkit-vitest-report-"));
  const report = join(out, "report.json");
  const unset = Object.keys(process.env).filter((name) => name.startsWith("VITEST"));
  try {
    // `env -u` drops the variables: runToEnd only adds to the environment.
    const args = [...unset.flatMap((name) => ["-u", name]), process.execPath, VITEST_BIN, "run", "--root", root, ...files, ...extra];
    // The default reporter's output (failures in full) goes into runToEnd's error.
    await runToEnd("env", [...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], { cwd: root, timeoutMs: 180_000 });
    return JSON.parse(readFileSync(report, "utf8")) as VitestReport;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The repository's root, for running the in-tree suite. */
export const REPOSITORY_ROOT = ROOT;
