/**
 * Issue 7's bundle sizes: what an app ships for each entry, bundled from the BUILT package with
 * esbuild for the browser (ESM, minified, tree-shaken), then gzipped (level 9, as size-limit
 * does). One row per entry (1 kB = 1,000 bytes, as size-limit counts). The budgets of issue 14
 * (the whole client at most 16 kB, one operation at most 14 kB; the issue-3 budget of 10 kB is
 * withdrawn) are checked on size-limit's figures, the same as the gate in `npm test`. msw stays external to `prospectkit/mock`: it is a
 * peer dependency the app already has. For comparison, the rows of size-limit, the gate in
 * `npm test`, which bundles with rolldown (it tree-shakes an unused operation better than esbuild).
 */
import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { atMost, type Benchmark, type BenchRow, info } from "./report.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The budgets of issue 14, in bytes, by the start of the size-limit check's name. */
const BUDGETS: readonly (readonly [prefix: string, bytes: number])[] = [
  ["the whole client", 16_000],
  ["one operation alone", 14_000],
];

/** Minified, gzipped bytes of a bundle of `source` (a module importing from the built dist/). */
async function gzippedBytes(source: string): Promise<{ raw: number; gzip: number }> {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: ROOT, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    external: ["msw"],
    write: false,
    logLevel: "error",
  });
  const code = result.outputFiles[0]!.contents;
  return { raw: code.byteLength, gzip: gzipSync(code, { level: 9 }).byteLength };
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;

/** The checks of `.size-limit.json` as size-limit measures them. */
function sizeLimit(): { name: string; size: number; sizeLimit: number }[] {
  const bin = new URL("node_modules/size-limit/bin.js", `file://${ROOT}`).pathname; // not in its exports
  return JSON.parse(execFileSync(process.execPath, [bin, "--json"], { cwd: ROOT, encoding: "utf8" })) as {
    name: string;
    size: number;
    sizeLimit: number;
  }[];
}

/** The entries an app imports, as it would write them. */
const ENTRIES = [
  ["the whole client: { createClient } from prospectkit", 'export { createClient } from "./dist/index.js";'],
  ["one operation alone: { createBaseClient, getPage } from prospectkit", 'export { createBaseClient, getPage } from "./dist/index.js";'],
  ["the mock: { createMockApi } from prospectkit/mock (msw external)", 'export { createMockApi } from "./dist/mock/index.js";'],
  ["the mock without msw: { createMockApi } from prospectkit/mock/core", 'export { createMockApi } from "./dist/mock/core.js";'],
] as const;

const benchmark: Benchmark = {
  name: "sizes",
  async run() {
    const rows: BenchRow[] = [];
    for (const [figure, source] of ENTRIES) {
      const { raw, gzip } = await gzippedBytes(source);
      rows.push(info(`${figure}, minified + gzip (browser, esbuild)`, `${kB(gzip)} (${kB(raw)} minified)`));
    }
    for (const check of sizeLimit()) {
      rows.push(info(`size-limit (rolldown): ${check.name}`, kB(check.size), `limit ${kB(check.sizeLimit)}`));
      const budget = BUDGETS.find(([prefix]) => check.name.startsWith(prefix))?.[1];
      if (budget)
        rows.push(atMost(`${check.name.split(":")[0]} within the issue-14 budget (size-limit)`, kB(check.size), kB(budget), check.size / budget, 1));
    }
    return rows;
  },
};

export default benchmark;
