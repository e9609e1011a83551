/**
 * `import.meta.glob(patterns, { eager: true })` outside Vite: the files of one folder whose names
 * match, as Vite's own expansion gives them (the tests run under Vite). The build
 * (tsup.config.ts) rewrites each call into one `import * as` per file, and the architecture tests
 * (test/support/import-graph.ts) read those imports as arrows. Only what the project writes is
 * understood: string patterns `./*.ts` (one `*`, in the folder of the importing file), `!`
 * excluding one, and `{ eager: true }`; anything else fails the build with the call shown.
 */
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname } from "node:path";

/** Every `import.meta.glob(...)` call of a module, with its arguments' text. */
const CALL = /import\.meta\.glob\(\s*(\[[^\]]*\]|"[^"]*")\s*,\s*\{\s*eager:\s*true\s*\}\s*\)/g;

/** A pattern as a regular expression over a file name (`./*.ts` matches `get-page.ts`). */
function matcher(pattern: string): RegExp {
  if (!/^\.\/[^/*]*\*[^/*]*$/.test(pattern))
    throw new Error(`import.meta.glob: only "./<name with one *>" patterns are supported, not ${JSON.stringify(pattern)}`);
  const [before, after] = pattern
    .slice(2)
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${before}[^/]*${after}$`);
}

/**
 * The files a call matches, as Vite names them (`./get-page.ts`), sorted.
 * @param file - the importing module
 * @param patterns - the call's patterns
 */
export function globFiles(file: string, patterns: readonly string[]): string[] {
  const included = patterns.filter((pattern) => !pattern.startsWith("!")).map(matcher);
  const excluded = new Set(patterns.filter((pattern) => pattern.startsWith("!")).map((pattern) => pattern.slice(1)));
  return readdirSync(dirname(file))
    .map((name) => `./${name}`)
    .filter((name) => !excluded.has(name) && included.some((pattern) => pattern.test(name.slice(2))))
    .sort();
}

/**
 * Each call of a module's source with the files it matches.
 * @param file - the module's path
 * @param source - its text
 */
export function globCalls(file: string, source: string): { call: string; files: string[] }[] {
  return [...source.matchAll(CALL)].map((match) => {
    const text = match[1]!;
    const patterns = JSON.parse(text.startsWith("[") ? text.replace(/,\s*\]$/, "]") : `[${text}]`) as string[];
    return { call: match[0], files: globFiles(file, patterns) };
  });
}

/**
 * The source with every call replaced by an object of the matched modules, imported at the top.
 * @param file - the module's path
 * @param source - its text
 */
export function expandGlobs(file: string, source: string): string {
  if (!source.includes("import.meta.glob")) return source;
  const calls = globCalls(file, source);
  if (calls.length === 0) throw new Error(`import.meta.glob in ${file}: a call this build cannot expand (see scripts/import-meta-glob.mjs)`);
  const imports: string[] = [];
  let text = source;
  calls.forEach(({ call, files }, index) => {
    const names = files.map((path, at) => {
      const name = `__glob_${index}_${at}`;
      imports.push(`import * as ${name} from ${JSON.stringify(path)};`);
      return `${JSON.stringify(path)}: ${name}`;
    });
    text = text.replace(call, `{ ${names.join(", ")} }`);
  });
  return `${imports.join("\n")}\n${text}`;
}

/** The esbuild plugin of the build: expands the calls of every project module that makes one. */
export const importMetaGlob = {
  name: "import-meta-glob",
  setup(build: {
    onLoad(options: { filter: RegExp }, callback: (args: { path: string }) => Promise<{ contents: string; loader: "ts" } | undefined>): void;
  }) {
    build.onLoad({ filter: /[\\/](?:src|mock)[\\/].*\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      return source.includes("import.meta.glob") ? { contents: expandGlobs(args.path, source), loader: "ts" } : undefined;
    });
  },
};
