import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

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
    {
      name: "ofetch-neutral-build",
      setup(build) {
        const neutral = fileURLToPath(new URL("./node_modules/ofetch/dist/index.mjs", import.meta.url));
        build.onResolve({ filter: /^ofetch$/ }, () => ({ path: neutral }));
      },
    },
  ],
  // src/version.ts: the user-agent and `prospectkit-mock --version` name the released version.
  define: { __PROSPECTKIT_VERSION__: JSON.stringify(version) },
});
