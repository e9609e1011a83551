/**
 * Issue 7's and 23's bundle sizes: what an app ships for each entry, bundled from the BUILT
 * package with esbuild for the browser (ESM, minified, tree-shaken), then gzipped (level 9, as
 * size-limit does). One row per entry (1 kB = 1,000 bytes, as size-limit counts). msw stays
 * external to `prospectkit/mock`: it is a peer dependency the app already has. Beside them, the
 * rows of size-limit, the gate in `npm test`, which bundles with rolldown (it tree-shakes better
 * than esbuild).
 *
 * Issue 23's targets: the whole client at most 18 kB (size-limit), and one operation alone at
 * most 70% of the whole client (size-limit and esbuild both). The floor of that ratio is measured
 * too: ofetch and zod with the schemas of one operation against the same with all five, without
 * any of the SDK's own code (which only raises the ratio, being shared by every operation).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { atMost, type Benchmark, type BenchRow, info } from "./report.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Issue 23's budget for the whole client, in bytes (size-limit). */
const WHOLE_CLIENT_BUDGET = 18_000;

/** Issue 23's budget for one operation alone, as a share of the whole client. */
const ONE_OPERATION_SHARE = 0.7;

/** The floor's two bundles: ofetch (its neutral build, as the SDK bundles it) and zod with one operation's schemas, or all five. */
const FLOOR = {
  one: `import { createFetch } from "${ROOT}node_modules/ofetch/dist/index.mjs"; import { Page } from "${ROOT}src/schemas/page.ts"; export const floor = [createFetch, (v) => Page.safeParse(v)];`,
  all: `import { createFetch } from "${ROOT}node_modules/ofetch/dist/index.mjs"; import { Page } from "${ROOT}src/schemas/page.ts"; import { ProspectLog, ProspectLogCreate } from "${ROOT}src/schemas/prospect-log.ts"; import { WebhookSubscription, WebhookSubscriptionUpdate } from "${ROOT}src/schemas/webhook-subscription.ts"; export const floor = [createFetch, (v) => [Page, ProspectLog, ProspectLogCreate, WebhookSubscription, WebhookSubscriptionUpdate].map((s) => s.safeParse(v))];`,
} as const;

/**
 * ofetch's helpers as its module imports them: `withBase` (which the SDK's requests use) alone, and
 * with `withQuery` and `destr`, which only a `query` option and JSON response parsing reach. The
 * SDK passes neither, yet no bundler can drop them from ofetch's code: the difference is part of
 * the floor of the whole client's size.
 */
const OFETCH_UNUSED = {
  used: `import { withBase } from "${ROOT}node_modules/ufo/dist/index.mjs"; export const used = [withBase];`,
  all: `import { withBase, withQuery } from "${ROOT}node_modules/ufo/dist/index.mjs"; import destr from "${ROOT}node_modules/destr/dist/index.mjs"; export const used = [withBase, withQuery, destr];`,
} as const;

/** Minified, gzipped bytes of a bundle of `source` (a module importing from the built dist/, or TypeScript sources). */
async function gzippedBytes(source: string): Promise<{ raw: number; gzip: number }> {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: ROOT, loader: "ts" },
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

/** Minified, gzipped bytes of `source` bundled by rolldown as size-limit bundles (tree-shaken, minified). */
async function rolldownBytes(source: string): Promise<number> {
  const { build } = (await import("rolldown")) as typeof import("rolldown");
  const dir = mkdtempSync(join(tmpdir(), "prospectkit-floor-"));
  try {
    const input = join(dir, "entry.ts");
    writeFileSync(input, source);
    const output = await build({
      input,
      output: { minify: true, comments: { annotation: false } },
      treeshake: true,
      write: false,
      logLevel: "silent",
    });
    const code = output.output.map((chunk) => ("code" in chunk ? chunk.code : "")).join("");
    return gzipSync(code, { level: 9 }).byteLength;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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
    const esbuildSizes: number[] = [];
    for (const [figure, source] of ENTRIES) {
      const { raw, gzip } = await gzippedBytes(source);
      esbuildSizes.push(gzip);
      rows.push(info(`${figure}, minified + gzip (browser, esbuild)`, `${kB(gzip)} (${kB(raw)} minified)`));
    }
    const [wholeByEsbuild, oneByEsbuild] = esbuildSizes as [number, number];
    const checks = sizeLimit();
    for (const check of checks) rows.push(info(`size-limit (rolldown): ${check.name}`, kB(check.size), `limit ${kB(check.sizeLimit)}`));
    const whole = checks.find((check) => check.name.startsWith("the whole client"))!.size;
    const one = checks.find((check) => check.name.startsWith("one operation alone"))!.size;
    rows.push(atMost("the whole client within issue 23's budget (size-limit)", kB(whole), kB(WHOLE_CLIENT_BUDGET), whole / WHOLE_CLIENT_BUDGET, 1));
    rows.push(atMost("one operation alone vs the whole client (size-limit)", kB(one), kB(whole), one / whole, ONE_OPERATION_SHARE));
    rows.push(
      atMost(
        "one operation alone vs the whole client (esbuild)",
        kB(oneByEsbuild),
        kB(wholeByEsbuild),
        oneByEsbuild / wholeByEsbuild,
        ONE_OPERATION_SHARE,
      ),
    );
    const floorOne = await rolldownBytes(FLOOR.one);
    const floorAll = await rolldownBytes(FLOOR.all);
    rows.push(
      info(
        "the floor of that share (rolldown): ofetch + zod + one operation's schemas vs all five, no SDK code",
        kB(floorOne),
        kB(floorAll),
        floorOne / floorAll,
      ),
    );
    const withBase = await rolldownBytes(OFETCH_UNUSED.used);
    const withUnused = await rolldownBytes(OFETCH_UNUSED.all);
    rows.push(
      info(
        "in the floor, code of ofetch's that the SDK never runs (ufo's withQuery and destr: no query, responses read as text), rolldown",
        kB(withUnused - withBase),
        kB(whole),
        (withUnused - withBase) / whole,
      ),
    );
    const esbuildFloorOne = (await gzippedBytes(FLOOR.one)).gzip;
    const esbuildFloorAll = (await gzippedBytes(FLOOR.all)).gzip;
    rows.push(info("the floor of that share (esbuild), as above", kB(esbuildFloorOne), kB(esbuildFloorAll), esbuildFloorOne / esbuildFloorAll));
    return rows;
  },
};

export default benchmark;
