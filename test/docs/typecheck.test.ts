/**
 * Every ```ts block of README.md and docs/*.md type-checks against the public API (imports of
 * `prospectkit*` pointed at the sources), also the ones that are not run (`no-run`), unless they
 * say `no-run no-check` (a block that imports a package this repository does not install). Its own
 * file: a whole-program check blocks the event loop for seconds, which would starve the HTTP
 * examples of examples.test.ts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";
import { allCodeBlocks, ROOT, withSources } from "./markdown.js";

// The browser app's files (`app: <path>`) are type-checked in their own Vite project, by test/browser/app-recipe.test.ts.
const typeChecked = allCodeBlocks().filter((block) => ["ts", "typescript"].includes(block.language) && !block.noCheck && block.app === undefined);

it("every TypeScript example type-checks against the public API", () => {
  // Inside the repository, so that msw and @types/node resolve as they do for a user's project.
  const dir = join(ROOT, "node_modules/.cache/prospectkit-docs-examples");
  mkdirSync(dir, { recursive: true });
  const files = typeChecked.map((block, index) => {
    const file = join(dir, `example-${index}.mts`);
    writeFileSync(file, `${withSources(block.code)}\nexport {};\n`);
    return { file, block };
  });
  const program = ts.createProgram(
    files.map(({ file }) => file),
    {
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ["node"],
      typeRoots: [join(ROOT, "node_modules/@types")],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      allowImportingTsExtensions: true,
    },
  );
  const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const source = files.find(({ file }) => file === diagnostic.file?.fileName);
    if (!source || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    return `${source.block.file}:${source.block.line + 1 + line}: ${message}`;
  });
  expect(problems).toEqual([]);
}, 120_000); // one whole-program check: about 20 s on a quiet machine, more while other suites run
