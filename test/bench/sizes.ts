/**
 * Issue 7's bundle sizes: what an app ships for each entry, bundled from the BUILT package with
 * esbuild for the browser (ESM, minified, tree-shaken), then gzipped (level 9, as size-limit
 * does). One row per entry; the whole client also against the issue-3 budget of 10 kB
 * (1 kB = 1,000 bytes, as size-limit counts). msw stays external to `prospectkit/mock`: it is a
 * peer dependency the app already has. For comparison, the rows of size-limit, the gate in
 * `npm test`, which bundles with rolldown (it tree-shakes an unused operation better than esbuild).
 */
import { execFileSync } from "node:child_process";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { atMost, type Benchmark, type BenchRow, info } from "./report.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** The client budget of issue 3, in bytes. */
const CLIENT_BUDGET = 10_000;

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
  return JSON.parse(execFileSync(process.execPath, [bin, "--json"], { cwd: ROOT, encoding: "utf8" })) as { name: string; size: number; sizeLimit: number }[];
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
    let client = Number.NaN;
    for (const [figure, source] of ENTRIES) {
      const { raw, gzip } = await gzippedBytes(source);
      if (source === ENTRIES[0][1]) client = gzip;
      rows.push(info(`${figure}, minified + gzip (browser, esbuild)`, `${kB(gzip)} (${kB(raw)} minified)`));
    }
    for (const check of sizeLimit()) rows.push(info(`size-limit (rolldown): ${check.name}`, kB(check.size), `limit ${kB(check.sizeLimit)}`));
    rows.push(atMost("the whole client within the 10 kB budget (issue 3), minified + gzip (esbuild)", kB(client), kB(CLIENT_BUDGET), client / CLIENT_BUDGET, 1));
    return rows;
  },
};

export default benchmark;
