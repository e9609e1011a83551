import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";
import { buildConsoleAssets } from "./mock/server/console-assets.ts";

/** The CommonJS build loads msw with a catchable `require` (mock/msw/load.cjs.ts); ES modules keep load.ts (top-level await). */
const mswLoaderPerFormat = {
  name: "msw-loader-per-format",
  setup(build: {
    initialOptions: { format?: string; outExtension?: Record<string, string> };
    onResolve(options: { filter: RegExp }, callback: (args: { resolveDir: string }) => { path: string } | undefined): void;
  }) {
    // With treeshake, tsup has esbuild write ES modules for both builds and rollup turn one into CommonJS: the extension tells them apart.
    const cjs = build.initialOptions.format === "cjs" || build.initialOptions.outExtension?.[".js"] === ".cjs";
    if (!cjs) return;
    build.onResolve({ filter: /^\.\/msw\/load\.js$/ }, (args) => ({ path: resolve(args.resolveDir, "msw/load.cjs.ts") }));
  },
};

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

// The console's browser assets: inlined into the server bundle (served from memory, whatever file
// the chunk lands in) and written to dist/console/ as well, where size-limit checks their budget.
const consoleAssets = buildConsoleAssets();

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "mock/index": "mock/index.ts",
    // The same mock without MSW, for fetch-only users and the standalone server.
    "mock/core": "mock/core.ts",
    // The standalone server and its CLI: Node only, so `node:` built-ins stay imports.
    "mock/server/index": "mock/server/index.ts",
    "mock/server/cli": "mock/server/cli.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
  splitting: true,
  treeshake: true,
  external: ["msw", /^node:/],
  // ofetch's package entry for Node loads node-fetch-native's polyfill (node:http, zlib, stream,
  // fs, ...) that the SDK never uses: runtimes since Node 18 have fetch. Bundling its
  // platform-neutral build (and destr, which only it uses) keeps that out of every runtime's
  // cold import; ufo stays an external dependency like zod, shared with the rest of unjs.
  noExternal: ["ofetch", "destr"],
  esbuildPlugins: [
    mswLoaderPerFormat,
    {
      name: "ofetch-neutral-build",
      setup(build) {
        const neutral = fileURLToPath(new URL("./node_modules/ofetch/dist/index.mjs", import.meta.url));
        build.onResolve({ filter: /^ofetch$/ }, () => ({ path: neutral }));
      },
    },
  ],
  // src/version.ts: the user-agent and `prospectkit-mock --version` name the released version.
  define: { __PROSPECTKIT_VERSION__: JSON.stringify(version), __PROSPECTKIT_CONSOLE__: JSON.stringify(consoleAssets) },
  async onSuccess() {
    mkdirSync("dist/console", { recursive: true });
    writeFileSync("dist/console/app.js", consoleAssets.js);
    writeFileSync("dist/console/app.css", consoleAssets.css);
  },
});
