/**
 * Issue 7's cold import time: `import("prospectkit")` in a fresh Node process against importing
 * its runtime dependency `zod/mini` alone, each timed inside the process around the dynamic
 * import (so Node's own boot is not counted). The processes alternate (SDK, baseline, SDK, ...)
 * so load from other work hits both alike; each figure is the median of its spawns. The SDK's own
 * code is also timed directly, importing it in a process that has loaded zod/mini already (the
 * difference of two medians drowns in noise). The same for
 * `require` (the CommonJS build). ofetch is also timed as a baseline: `import("ofetch")` in Node
 * loads its Node entry (node-fetch-native's polyfill), which the SDK avoids by bundling ofetch's
 * platform-neutral build, so the row shows what that saves.
 *
 * Issue 23's target: the cold import at most 1.25 times zod/mini's. An import no longer loads
 * undici (Node's fetch); the first `createClient` does (for `Headers`), as any first fetch would,
 * so a row also times the import together with `createClient`, against zod/mini with undici loaded.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { atMost, type Benchmark, type BenchRow, info, median } from "./report.ts";

const ROOT = new URL("../../", import.meta.url);
const SPAWNS = 21;

type Loader = "import" | "require";

/**
 * Milliseconds one fresh process spends loading `specifier` (resolved from the repository root,
 * where `prospectkit` refers to itself): wall time, and the process's CPU time (user + system),
 * which a busy machine inflates less.
 */
function coldLoad(loader: Loader, specifier: string): { wall: number; cpu: number } {
  const load = loader === "import" ? `await import(${JSON.stringify(specifier)})` : `require(${JSON.stringify(specifier)})`;
  const code = `const c = process.cpuUsage(); const t = performance.now(); ${load}; const u = process.cpuUsage(c); process.stdout.write(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  const args = loader === "import" ? ["--input-type=module", "-e", code] : ["-e", code];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" })) as { wall: number; cpu: number };
}

/**
 * Milliseconds one fresh process spends importing `specifier` and then making ready to call: for
 * the SDK, `createClient`; for the baseline, loading what `fetch` needs (`new Headers()`).
 */
function coldReadyMs(specifier: string): number {
  const ready =
    specifier === "prospectkit" ? 'm.createClient({ apiKey: "pk_startup_0123456789", baseUrl: "https://api.example.com" });' : "new Headers();";
  const code = `const t = performance.now(); const m = await import(${JSON.stringify(specifier)}); ${ready} process.stdout.write(String(performance.now() - t));`;
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" }));
}

/** Milliseconds one fresh process spends importing `prospectkit` after `zod/mini` is loaded: the SDK's own code. */
function ownCodeMs(): number {
  const code =
    'await import("zod/mini"); const t = performance.now(); await import("prospectkit"); process.stdout.write(String(performance.now() - t));';
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: ROOT, encoding: "utf8" }));
}

interface Comparison {
  /** Median wall times. */
  sdk: number;
  baseline: number;
  /** Median CPU times. */
  sdkCpu: number;
  baselineCpu: number;
  /** The 25th to 75th percentile of the per-pair wall ratios. */
  spread: string;
}

/** Median cold load times of the SDK and of the baseline, in alternating fresh processes. */
function compare(loader: Loader, sdk: string, baseline: string): Comparison {
  coldLoad(loader, sdk); // warm the file system cache for both, uncounted
  coldLoad(loader, baseline);
  const sdkTimes: { wall: number; cpu: number }[] = [];
  const baselineTimes: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < SPAWNS; i++) {
    const order: [{ wall: number; cpu: number }[], string][] = [
      [sdkTimes, sdk],
      [baselineTimes, baseline],
    ];
    if (i % 2 === 1) order.reverse();
    for (const [times, specifier] of order) times.push(coldLoad(loader, specifier));
  }
  const ratios = sdkTimes.map((time, i) => time.wall / baselineTimes[i]!.wall).sort((a, b) => a - b);
  const at = (p: number) => ratios[Math.round(p * (ratios.length - 1))]!.toFixed(2);
  return {
    sdk: median(sdkTimes.map((time) => time.wall)),
    baseline: median(baselineTimes.map((time) => time.wall)),
    sdkCpu: median(sdkTimes.map((time) => time.cpu)),
    baselineCpu: median(baselineTimes.map((time) => time.cpu)),
    spread: `${at(0.25)}-${at(0.75)}`,
  };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

const benchmark: Benchmark = {
  name: "startup",
  async run() {
    const { dependencies = {} } = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8")) as { dependencies?: Record<string, string> };
    const esm = compare("import", "prospectkit", "zod/mini");
    const cjs = compare("require", "prospectkit", "zod/mini");
    const own = median(Array.from({ length: SPAWNS }, ownCodeMs));
    const readySdk: number[] = [];
    const readyBaseline: number[] = [];
    for (let i = 0; i < SPAWNS; i++) {
      readySdk.push(coldReadyMs("prospectkit"));
      readyBaseline.push(coldReadyMs("zod/mini"));
    }
    const rows: BenchRow[] = [
      atMost(
        `cold import("prospectkit") vs import("zod/mini") alone, fresh process (median of ${SPAWNS}; pair ratios ${esm.spread})`,
        ms(esm.sdk),
        ms(esm.baseline),
        esm.sdk / esm.baseline,
        1.25,
      ),
      info(
        `the same in CPU time (user + system) of each process (median of ${SPAWNS})`,
        ms(esm.sdkCpu),
        ms(esm.baselineCpu),
        esm.sdkCpu / esm.baselineCpu,
      ),
      info(
        `cold import("prospectkit") + createClient vs import("zod/mini") + new Headers() (both load undici), fresh process (median of ${SPAWNS})`,
        ms(median(readySdk)),
        ms(median(readyBaseline)),
        median(readySdk) / median(readyBaseline),
      ),
      info(`the SDK's own code: import("prospectkit") once zod/mini is loaded, fresh process (median of ${SPAWNS})`, ms(own), ""),
      info(
        `cold require("prospectkit") vs require("zod/mini") alone, fresh process (median of ${SPAWNS})`,
        ms(cjs.sdk),
        ms(cjs.baseline),
        cjs.sdk / cjs.baseline,
      ),
    ];
    // ofetch is the SDK's transport (its neutral build, bundled); its own Node entry is the baseline here.
    const ofetch = "ofetch" in dependencies ? compare("import", "prospectkit", "ofetch") : undefined;
    rows.push(
      ofetch
        ? info(
            `cold import("prospectkit") vs import("ofetch") alone, fresh process (median of ${SPAWNS})`,
            ms(ofetch.sdk),
            ms(ofetch.baseline),
            ofetch.sdk / ofetch.baseline,
          )
        : info('import("ofetch") alone', "not measured", "no dependency: the SDK uses the runtime's fetch"),
    );
    return rows;
  },
};

export default benchmark;
