/**
 * Issue 23: the built package costs only what a caller uses. A bundle keeps only the code behind
 * the exports it imports (rolldown, the bundler of the size-limit gate), and `import("prospectkit")`
 * loads neither Node's fetch (undici) nor the mock console's assets.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const entry = join(root, "dist/index.js");

/** Minified code of a bundle of `import { names } from "prospectkit"` (the built dist/), as size-limit bundles it. */
async function bundleOf(names: string): Promise<string> {
  const { build } = (await import("rolldown")) as typeof import("rolldown");
  const dir = mkdtempSync(join(tmpdir(), "prospectkit-lean-"));
  try {
    const input = join(dir, "entry.js");
    writeFileSync(input, `import { ${names} } from ${JSON.stringify(entry)};\nconsole.log(${names});\n`);
    const output = await build({ input, output: { minify: true }, treeshake: true, write: false, logLevel: "silent" });
    return output.output.map((chunk) => ("code" in chunk ? chunk.code : "")).join("");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Text that marks a piece of the SDK in a bundle. */
const MARKS = {
  "the error classes": "prospectkit.error", // their brand, Symbol.for("prospectkit.error")
  zod: "Invalid input", // zod's fallback issue message
  "ofetch (the transport)": "FetchError",
  "the body converter": "JSON has no",
  "the webhook helpers": "whsec_",
  "updateWebhookSubscription's rules": "events_empty",
  "createProspectLog's idempotency key": "10000000-1000-4000-8000-100000000000",
} as const;
type Mark = keyof typeof MARKS;

const CASES: [imports: string, leavesOut: Mark[]][] = [
  ["PROBLEM_CONTENT_TYPE", ["the error classes", "zod", "ofetch (the transport)"]],
  ["ProspectLog", ["the error classes", "ofetch (the transport)", "the webhook helpers"]],
  ["verifyWebhook", ["ofetch (the transport)", "the body converter", "updateWebhookSubscription's rules"]],
  [
    "createBaseClient, getPage",
    ["the body converter", "the webhook helpers", "updateWebhookSubscription's rules", "createProspectLog's idempotency key"],
  ],
  ["createClient", ["the webhook helpers"]],
];

describe("issue 23: a bundle keeps only what its imports use (rolldown, minified)", () => {
  beforeAll(() => {
    if (!existsSync(entry)) throw new Error("dist/ is missing: run `npm run build` first (npm test does)");
  });

  it.each(CASES)("import { %s } leaves out %j", async (imports, leavesOut) => {
    const code = await bundleOf(imports);
    for (const part of leavesOut) expect(code, `${part} in a bundle of { ${imports} }`).not.toContain(MARKS[part]);
  });
});

/** The files `file` imports statically, transitively (relative imports of the built chunks only). */
function importGraph(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const [, specifier] of readFileSync(file, "utf8").matchAll(/\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    importGraph(resolve(dirname(file), specifier!), seen);
  }
  return seen;
}

describe('issue 23: import("prospectkit") loads only the SDK', () => {
  it("loads no undici, tls or zlib: Node's fetch is loaded by the first client, not by the import", () => {
    const code =
      'await import("prospectkit"); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /undici|\\btls\\b|zlib/.test(m))));';
    const loaded = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: root, encoding: "utf8" })) as string[];
    expect(loaded).toEqual([]);
  });

  it("parses none of the mock console's assets", () => {
    const files = [...importGraph(entry)];
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toContain("PROSPECTKIT_CONSOLE");
  });

  it("while the server's build carries them, for the console it serves", () => {
    // a piece of the style sheet as the build inlines it (a JSON string in the server's chunks)
    const css = JSON.stringify(readFileSync(join(root, "dist/console/app.css"), "utf8")).slice(1, 80);
    const files = [...importGraph(join(root, "dist/mock/server/index.js"))];
    expect(files.some((file) => readFileSync(file, "utf8").includes(css))).toBe(true);
  });
});
