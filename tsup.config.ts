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

const ROOT = fileURLToPath(new URL(".", import.meta.url));
const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

// The console's browser assets: inlined into the server bundle (served from memory) and written to
// dist/console/ as well, where size-limit checks their budget.
const consoleAssets = buildConsoleAssets();

/** A build value given to the one module that reads it, declared at its top (not a `define`: see below). */
function inlineValue(name: string, file: RegExp, value: unknown) {
  return {
    name: `inline-${name}`,
    setup(build: {
      onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => { contents: string; loader: "ts" }): void;
      onEnd(callback: () => void): void;
    }) {
      let given = false;
      build.onLoad({ filter: file }, (args) => {
        given = true;
        return { contents: `const ${name} = ${JSON.stringify(value)};\n${readFileSync(args.path, "utf8")}`, loader: "ts" };
      });
      // A move of that module would otherwise build a mock without the value.
      build.onEnd(() => {
        if (!given) throw new Error(`tsup.config.ts: the module that reads ${name} was not built; update its inlineValue`);
      });
    },
  };
}

/**
 * Gives `__PROSPECTKIT_CONSOLE__` its value inside the one module that reads it
 * (mock/console/page.ts), so the ~60 kB of assets land in the mock's chunk only. A `define` of
 * an object (as vitest.config.ts has) made esbuild put it in a shared chunk, the one that
 * `import("prospectkit")` parses, and `inject` does the same.
 */
const consoleAssetsInline = inlineValue("__PROSPECTKIT_CONSOLE__", /[\\/]mock[\\/]console[\\/]page\.ts$/, consoleAssets);

/**
 * ofetch as the SDK imports it (`createFetch` and `fetch`), without the rest of the entry of its
 * platform-neutral build: that entry also makes a default instance at load time and reads
 * `globalThis.Headers` for it, which in Node loads undici (about 50 ms of a cold import, paid
 * even by code that only verifies webhooks). `createFetch` comes from the module that defines it;
 * `fetch` is the entry's own one-line export, written here as it is there: the global `fetch`,
 * looked up at each call. ofetch is pinned, and the build fails if its layout changes.
 */
function ofetchCore(): string {
  const entry = fileURLToPath(new URL("./node_modules/ofetch/dist/index.mjs", import.meta.url));
  const text = readFileSync(entry, "utf8");
  const found = /import \{ (\w+) as createFetch \} from '(\.\/shared\/ofetch\.[\w-]+\.mjs)'/.exec(text);
  const fetch = "const fetch = _globalThis.fetch ? (...args) => _globalThis.fetch(...args) : () => Promise.reject(";
  if (!found || !text.includes(fetch)) throw new Error("tsup.config.ts: ofetch's neutral entry changed; update ofetchCore()");
  return [
    `export { ${found[1]} as createFetch } from ${JSON.stringify(resolve(entry, "..", found[2]!))};`,
    `export const fetch = globalThis.fetch ? (...args) => globalThis.fetch(...args) : () => Promise.reject(new Error("[ofetch] global.fetch is not supported!"));`,
  ].join("\n");
}

export default defineConfig({
  entry: {
    index: "src/index.ts",
    "mock/index": "mock/index.ts",
    // The same mock without MSW, for fetch-only users and the standalone server.
    "mock/core": "mock/core.ts",
    // The standalone server and its CLI: Node only, so `node:` built-ins stay imports.
    "mock/server/index": "mock/server/index.ts",
    "mock/server/cli": "mock/server/cli.ts",
    // The request matchers for Vitest and Jest (one module: it imports neither runner).
    "mock/vitest": "mock/vitest.ts",
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
  // fs, ...) that the SDK never uses: runtimes since Node 18 have fetch. Bundling the core of its
  // platform-neutral build (and destr, which only it uses) keeps that out of every runtime's
  // cold import; ufo stays an external dependency like zod, shared with the rest of unjs.
  noExternal: ["ofetch", "destr"],
  esbuildPlugins: [
    mswLoaderPerFormat,
    consoleAssetsInline,
    {
      name: "ofetch-neutral-core",
      setup(build) {
        const contents = ofetchCore();
        build.onResolve({ filter: /^ofetch$/ }, () => ({ path: "ofetch", namespace: "ofetch-core" }));
        build.onLoad({ filter: /.*/, namespace: "ofetch-core" }, () => ({ contents, loader: "js", resolveDir: ROOT }));
      },
    },
  ],
  // src/version.ts: the user-agent and `prospectkit-mock --version` name the released version.
  define: { __PROSPECTKIT_VERSION__: JSON.stringify(version) },
  async onSuccess() {
    mkdirSync("dist/console", { recursive: true });
    writeFileSync("dist/console/app.js", consoleAssets.js);
    writeFileSync("dist/console/app.css", consoleAssets.css);
  },
});
