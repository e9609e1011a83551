import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import * as sdk from "../../src/index.js";
import * as webhooks from "../../src/webhooks/index.js";

/** Bundles, minified, an app that uses `names` from the SDK entry, as a user's bundler would. */
async function bundle(names: readonly string[]): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { ${names.join(", ")} } from "./src/index.ts";\nconsole.log(${names.join(", ")});`,
      resolveDir: process.cwd(),
      loader: "ts",
    },
    bundle: true,
    minify: true,
    write: false,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Strings that only the webhook code contains. */
const WEBHOOK_MARKERS = ["whsec_", "webhook-signature", "WebhookVerificationError", "HMAC"];

describe("the webhook code costs nothing to an app that does not use it", () => {
  const webhookNames = new Set([...Object.keys(webhooks), "WebhookEvent"]);
  const otherNames = Object.keys(sdk).filter((name) => !webhookNames.has(name));
  let others: Promise<string> | undefined;

  it.each(WEBHOOK_MARKERS.map((marker) => [marker]))("importing every other export bundles no %s", async (marker) => {
    expect(otherNames.length).toBeGreaterThan(5);
    others ??= bundle(otherNames);
    expect(await others).not.toContain(marker);
  });

  it.each([["verifyWebhook"], ["signWebhook"]])("importing %s does bundle it (the check above can see the code)", async (name) => {
    expect(await bundle([name])).toContain("whsec_");
  });
});
