/**
 * Ends the matrix's output with the plain closing line CI reads: `runtimes: N passed, N failed`.
 */
import type { Reporter, TestModule } from "vitest/node";

/** Counts the cases of the run and prints one summary line. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    for (const module of testModules) {
      // A file that failed to load or whose hook failed has no passing case to count.
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed += 1;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
      }
    }
    console.log(`runtimes: ${passed} passed, ${failed} failed`);
  }
}
