/**
 * The fenced code blocks of the project's Markdown (README.md and docs/*.md), with where they are
 * and what their info string says, so that one test can run every example.
 *
 * Info strings: the first word is the language (`ts`, `sh`, `python`, ...). After it:
 * - `vitest`: a Vitest test file, run by Vitest itself;
 * - `no-run: reason`: deliberately not executed (still type-checked when it is TypeScript); the
 *   reason is required; `no-run no-check: reason` also skips the type check (a block that imports
 *   a package this repository does not install).
 * - `app: <path>`: a file of the browser example app (docs/testing.md), written at that path into
 *   a Vite project and run, type-checked and built there by test/browser/app-recipe.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The repository root. */
export const ROOT = join(import.meta.dirname, "../..");

/** One fenced block. */
export interface CodeBlock {
  /** Repository-relative file, e.g. `docs/sdk.md`. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The nearest heading above the block. */
  readonly heading: string;
  /** The info string's first word, lower case. */
  readonly language: string;
  /** Why the block is not run, when its info string says `no-run: reason`. */
  readonly noRun: string | undefined;
  /** `no-check`: not type-checked either. */
  readonly noCheck: boolean;
  /** `vitest`: a test file, run by Vitest. */
  readonly vitest: boolean;
  /** `app: <path>`: a file of the browser example app, at this path of its project. */
  readonly app: string | undefined;
  /** The code, with the list indentation of the fence removed. */
  readonly code: string;
}

/** README.md and every Markdown file directly under docs/. */
export function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

const FENCE = /^( *)```(\S*)(.*)$/;

/** Every fenced block of `file` in order. */
export function codeBlocks(file: string): CodeBlock[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  const blocks: CodeBlock[] = [];
  let heading = "";
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    if (text.startsWith("#")) heading = text.replace(/^#+\s*/, "");
    const open = FENCE.exec(text);
    if (!open) continue;
    const [, indent = "", language = "", rest = ""] = open;
    const body: string[] = [];
    let end = index + 1;
    while (end < lines.length && lines[end]!.trim() !== "```") body.push(lines[end++]!.slice(indent.length));
    if (end === lines.length) throw new TypeError(`${file}:${index + 1}: unterminated code block`);
    const noRun = /\bno-run\b(?: no-check)?(?::\s*(.*))?/.exec(rest);
    if (noRun && !noRun[1]?.trim()) throw new TypeError(`${file}:${index + 1}: "no-run" needs a reason ("no-run: why")`);
    blocks.push({
      file,
      line: index + 1,
      heading,
      language: language.toLowerCase(),
      noRun: noRun?.[1]?.trim(),
      noCheck: /\bno-check\b/.test(rest),
      vitest: /^\s*vitest\b/.test(rest),
      app: /^\s*app:\s*(\S+)/.exec(rest)?.[1],
      code: `${body.join("\n")}\n`,
    });
    index = end;
  }
  return blocks;
}

/** Every block of README.md and docs/*.md. */
export function allCodeBlocks(): CodeBlock[] {
  return markdownFiles().flatMap(codeBlocks);
}

/** A short name for test titles: `docs/sdk.md:42 (Retries)`. */
export function label(block: CodeBlock): string {
  return `${block.file}:${block.line} (${block.heading})`;
}

/**
 * The lines a block says it prints, from `// prints: text` (TypeScript) or `# prints: text`
 * (Python) comments, in source order. In the text, `*` stands for any run of non-space characters.
 */
export function expectedPrints(block: CodeBlock): RegExp[] {
  const marker = block.language === "python" ? "#" : "//";
  const pattern = new RegExp(`${marker} prints: (.*)$`);
  return block.code
    .split("\n")
    .map((line) => pattern.exec(line)?.[1]?.trim())
    .filter((text): text is string => text !== undefined)
    .map(
      (text) =>
        new RegExp(
          `^${text
            .split("*")
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join("\\S*")}$`,
        ),
    );
}

/** Where each public entry point's source is. */
export const SOURCES: Record<string, string> = {
  prospectkit: "src/index.ts",
  "prospectkit/mock": "mock/index.ts",
  "prospectkit/mock/core": "mock/core.ts",
  "prospectkit/mock/server": "mock/server/index.ts",
  "prospectkit/mock/vitest": "mock/vitest.ts",
};

/** The block's code importing the sources instead of the package. */
export function withSources(code: string): string {
  return code.replace(/from "(prospectkit[^"]*)"/g, (_match, name: string) => {
    const source = SOURCES[name];
    if (source === undefined) throw new TypeError(`an example imports ${name}, which is not a public entry point`);
    return `from ${JSON.stringify(join(ROOT, source))}`;
  });
}
