import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { defineConfig } from "tsup";
import { buildConsoleAssets } from "./mock/server/console-assets.ts";

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
  // src/version.ts: the user-agent and `prospectkit-mock --version` name the released version.
  define: { __PROSPECTKIT_VERSION__: JSON.stringify(version), __PROSPECTKIT_CONSOLE__: JSON.stringify(consoleAssets) },
  async onSuccess() {
    mkdirSync("dist/console", { recursive: true });
    writeFileSync("dist/console/app.js", consoleAssets.js);
    writeFileSync("dist/console/app.css", consoleAssets.css);
  },
});
