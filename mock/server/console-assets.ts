/**
 * Builds the console's browser assets (one ES module, one style sheet) with esbuild, for the
 * build (`tsup.config.ts` writes them into the server bundle and into `dist/console/`) and for
 * tests run from source (`vitest.config.ts`). Build tooling only: no entry imports this file.
 * @module
 */

import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { OPERATION_TABLE, OPERATIONS } from "../../src/operation-table.js";
import { WEBHOOK_EVENT_KINDS } from "../../src/schemas/events.js";
import { WebhookSubscription } from "../../src/schemas/webhook-subscription.js";
import { MATCH_FIELDS } from "../faults/match.js";
import { DEFAULT_API_KEY } from "../options.js";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The operation the console pauses and resumes a subscription with: the API's partial update of one (a PATCH answering the subscription). */
const SUBSCRIPTION_UPDATE = OPERATION_TABLE.find((row) => row.method === "PATCH" && row.result === WebhookSubscription)!;

/**
 * Bundles and minifies the console UI (Preact + htm) for current browsers.
 * @returns the script and the style sheet, as text
 * @throws the esbuild error when the UI does not compile
 */
export function buildConsoleAssets(): { readonly js: string; readonly css: string } {
  const result = buildSync({
    entryPoints: [here("../console/ui/main.ts")],
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    write: false,
    legalComments: "none",
    define: {
      __DEVELOPMENT_KEY__: JSON.stringify(DEFAULT_API_KEY),
      __EVENT_KINDS__: JSON.stringify(WEBHOOK_EVENT_KINDS),
      __OPERATIONS__: JSON.stringify(OPERATIONS),
      // What a fault's match may name, per operation (its path parameters and scalar body fields).
      __MATCH_FIELDS__: JSON.stringify(MATCH_FIELDS),
      // The API paths come from the operation table, the one place they are written.
      __UPDATE_SUBSCRIPTION_PATH__: JSON.stringify(SUBSCRIPTION_UPDATE.path),
    },
  });
  const css = buildSync({ entryPoints: [here("../console/ui/console.css")], bundle: true, minify: true, write: false, loader: { ".css": "css" } });
  return { js: result.outputFiles[0]!.text, css: css.outputFiles[0]!.text };
}
