import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { VERSION } from "../../src/version.js";

const root = join(import.meta.dirname, "../..");
const sources = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
  .filter((path) => path.endsWith(".ts"))
  .map((path) => [relative(root, join(root, "src", path)), readFileSync(join(root, "src", path), "utf8")] as const);

describe("issue 3.9: src/ runs everywhere: Node >= 20, browsers, Deno, Bun, workerd", () => {
  it("the scan sees the SDK's files", () => {
    expect(sources.map(([path]) => path)).toEqual(expect.arrayContaining(["src/index.ts", "src/client.ts", "src/request.ts"]));
  });

  it.each(sources)("%s imports no node: module, statically or dynamically", (_path, text) => {
    expect(text).not.toMatch(/\bfrom\s+["']node:|\bimport\s*\(\s*["']node:|\brequire\s*\(\s*["']node:/);
  });

  it.each(sources)("%s imports no Node built-in by its bare name either", (_path, text) => {
    expect(text).not.toMatch(/\bfrom\s+["'](fs|path|util|http|https|crypto|events|stream|buffer|os|url|net|tls|zlib|child_process)["']/);
  });

  it.each(sources)("%s throws no bare Error (every failure is a ProspectKitError)", (_path, text) => {
    expect(text).not.toMatch(/new (Error|TypeError|RangeError)\(/);
  });
});

describe("the user-agent names the released version", () => {
  it("VERSION equals package.json's version", () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(VERSION).toBe(version);
  });
});

describe("issue 14: ofetch is the transport and the only caller of fetch", () => {
  const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ""); // comments may mention fetch(...)

  it.each(sources)("%s calls no fetch itself", (_path, text) => {
    expect(code(text)).not.toMatch(/\bfetch\s*\(/);
  });

  it("src/attempt.ts sends every attempt through ofetch's createFetch, and ofetch is an exact dependency", () => {
    const attempt = sources.find(([path]) => path === join("src", "attempt.ts"))![1];
    expect(attempt).toMatch(/import \{ createFetch, fetch as globalFetch \} from "ofetch";/);
    const { dependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(dependencies.ofetch).toMatch(/^1\.5\.\d+$/);
  });
});
