/**
 * The mock core is framework-free: web standards only (no `node:` import under mock/, except the
 * Node HTTP server's own folder mock/server/, which the core never imports),
 * and only mock/index.ts (the `prospectkit/mock` entry with the MSW handlers) imports msw, taking
 * nothing but `http`, `HttpResponse` and types, so `prospectkit/mock/core` and the standalone server
 * never load msw, and the handlers work with msw 2 and 3.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "../..");
const mockDir = join(root, "mock");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** A file's code without its comments (so an example in a doc comment is not mistaken for code). */
function code(file: string): string {
  return readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
}

/** Every module specifier a file imports or re-exports (static and dynamic, and require). */
function specifiers(file: string): string[] {
  const text = code(file);
  const found: string[] = [];
  for (const match of text.matchAll(
    /(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|require\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g,
  )) {
    found.push((match[1] ?? match[2] ?? match[3] ?? match[4])!);
  }
  return found;
}

/** The files reachable from `entry` through relative imports. */
function importGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(file)) {
      if (spec.startsWith(".")) queue.push(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
    }
  }
  return seen;
}

describe("portability of prospectkit/mock", () => {
  const serverDir = join(mockDir, "server");
  const files = sourceFiles(mockDir).filter((file) => !file.startsWith(serverDir));

  it("finds the mock's sources", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files.map((file) => [relative(root, file), file]))("%s imports no node: module", (_, file) => {
    expect(specifiers(file).filter((spec) => spec.startsWith("node:") || ["fs", "path", "crypto", "http", "buffer"].includes(spec))).toEqual([]);
  });

  it.each([["mock/core.ts"], ["mock/server/index.ts"], ["mock/server/cli.ts"], ["mock/vitest.ts"]])(
    "nothing reachable from %s imports msw",
    (entry) => {
      const reachable = [...importGraph(join(root, entry))];
      expect(reachable.length).toBeGreaterThan(20);
      expect(
        reachable.filter((file) => specifiers(file).some((spec) => spec === "msw" || spec.startsWith("msw/"))).map((f) => relative(root, f)),
      ).toEqual([]);
    },
  );

  it("only mock/index.ts (types) and the msw loaders (mock/msw/) import msw, and only http, HttpResponse and types", () => {
    const importers = files.filter((file) => specifiers(file).some((spec) => spec === "msw" || spec.startsWith("msw/")));
    expect(importers.map((file) => relative(root, file)).sort()).toEqual(["mock/index.ts", "mock/msw/load.cjs.ts", "mock/msw/load.ts"]);
    const index = readFileSync(join(mockDir, "index.ts"), "utf8");
    const fromMsw = [...index.matchAll(/import\s*(type\s*)?\{([^}]*)\}\s*from\s*"msw"/g)].flatMap((m) =>
      m[2]!
        .split(",")
        .map((s) => `${m[1] ? "type " : ""}${s.trim()}`)
        .filter((s) => s !== "type " && s !== ""),
    );
    const fromLoader = [...index.matchAll(/import\s*\{([^}]*)\}\s*from\s*"\.\/msw\/load\.js"/g)].flatMap((m) =>
      m[1]!
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    );
    expect([...fromMsw, ...fromLoader].sort()).toEqual(["HttpResponse", "http", "type HttpHandler"].sort());
    for (const loader of ["load.ts", "load.cjs.ts"]) {
      const used = [...readFileSync(join(mockDir, "msw", loader), "utf8").matchAll(/\bmsw\.(\w+)/g)].map((m) => m[1]);
      expect(new Set(used)).toEqual(new Set(["http", "HttpResponse"]));
    }
  });

  it("the core reaches web-standard globals only: no process, Buffer, require or __dirname", () => {
    const reachable = [...importGraph(join(mockDir, "index.ts"))];
    expect(reachable).toContain(join(mockDir, "core.ts"));
    expect(reachable.some((file) => file.startsWith(serverDir))).toBe(false);
    const offenders = reachable.filter((file) => /\b(process\.|Buffer\.|require\(|__dirname|__filename)/.test(code(file)));
    expect(offenders.map((f) => relative(root, f))).toEqual([]);
  });
});
