/**
 * The examples that use msw run under msw 2 too, as written (examples.test.ts runs them under the
 * repository's msw 3): every ```ts block of README.md and docs/*.md that imports `msw` (but the
 * browser app's files, which test/browser/app-recipe.test.ts runs under both) goes into a
 * throw-away project that installed the packed package and msw 2, what npm installs on Node 20.
 * There they type-check under strict TypeScript against msw 2's types, ```ts vitest blocks pass
 * under the repository's vitest, and other blocks run under Node and print what their
 * `// prints:` comments say. And the reason the examples spell the option with
 * `unhandledRequests`: msw 2 ignores msw 3's `onUnhandledFrame` without a word.
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runVitest } from "../conformance/msw2/project.ts";
import { installIntoEmptyProject } from "../package/pack.ts";
import { MSW_PINS } from "../runtimes/runtimes.ts";
import { finishConsumerProject } from "../support/consumer-project.ts";
import { allCodeBlocks, type CodeBlock, expectedPrints, label, ROOT } from "./markdown.ts";

const run = promisify(execFile);

/** The blocks that import msw, by the file name each gets in the project. */
const blocks = allCodeBlocks()
  .filter((block) => ["ts", "typescript"].includes(block.language) && block.noRun === undefined && block.app === undefined)
  .filter((block) => /from "msw(?:\/[^"]*)?"/.test(block.code))
  .map((block) => [`${block.file.replace(/\W/g, "_")}_${block.line}${block.vitest ? ".test" : ""}.ts`, block] as const);

/** A project's tsconfig: strict, as a user's, resolving as Node does. */
const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    types: ["node"],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    allowImportingTsExtensions: true,
  },
};

describe("the msw examples of README.md and docs/*.md under msw 2", () => {
  let project: string;
  beforeAll(() => {
    project = installIntoEmptyProject(inject("tarball"), [MSW_PINS[2]]);
    finishConsumerProject(project, ["vitest", "@types/node"]);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify(TSCONFIG));
    for (const [name, block] of blocks) writeFileSync(join(project, name), block.code);
  }, 180_000);
  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it("finds the examples that use msw (the README's and the testing guide's)", () => {
    expect(blocks.map(([, block]) => block.file)).toEqual(expect.arrayContaining(["README.md", "docs/testing.md"]));
    expect(blocks.filter(([, block]) => block.vitest).length).toBeGreaterThanOrEqual(2);
  });

  it("installs msw 2", () => {
    const { version } = JSON.parse(readFileSync(join(project, "node_modules/msw/package.json"), "utf8")) as { version: string };
    expect(`msw@${version}`).toBe(MSW_PINS[2]);
  });

  it("type-checks them under strict TypeScript against msw 2's types", async () => {
    const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
    const output = await run(process.execPath, [tsc, "-p", "."], { cwd: project }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(output).toBe("");
  });

  it.each(blocks.filter(([, block]) => block.vitest).map(([name, block]) => [label(block), name] as const))(
    "vitest %s passes",
    async (_, name) => {
      const report = await runVitest(project, [name]);
      expect(report.numFailedTests + report.numPendingTests + report.numTodoTests).toBe(0);
      expect(report.numPassedTests).toBeGreaterThan(0);
    },
    120_000,
  );

  it.each(blocks.filter(([, block]) => !block.vitest).map(([name, block]) => [label(block), name, block] as const))(
    "ts %s prints what it says",
    async (_, name, block: CodeBlock) => {
      const { stdout } = await run(process.execPath, [name], { cwd: project });
      expect(stdout.split("\n").slice(0, -1)).toEqual(expectedPrints(block).map((line) => expect.stringMatching(line)));
    },
  );

  it("msw 2 ignores msw 3's onUnhandledFrame (the request goes out); unhandledRequests fails it", async () => {
    // A real server on loopback: a request that passes through gets its answer.
    const script = (options: string) => `
      import { createServer } from "node:http";
      import { setupServer } from "msw/node";
      import { createMockApi, unhandledRequests } from "prospectkit/mock";
      const real = createServer((_, response) => response.end("real")).listen(0, "127.0.0.1");
      await new Promise((done) => real.once("listening", done));
      const server = setupServer(...createMockApi().handlers);
      server.listen(${options});
      console.error = () => {}; console.warn = () => {};
      const url = "http://127.0.0.1:" + real.address().port + "/unhandled";
      const outcome = await fetch(url).then((response) => response.text(), () => "failed");
      server.close(); real.close();
      process.stdout.write(outcome);`;
    writeFileSync(join(project, "unhandled-frame.ts"), script(`{ onUnhandledFrame: "error" } as never`));
    writeFileSync(join(project, "unhandled-requests.ts"), script(`unhandledRequests("error")`));
    expect((await run(process.execPath, ["unhandled-frame.ts"], { cwd: project })).stdout).toBe("real");
    expect((await run(process.execPath, ["unhandled-requests.ts"], { cwd: project })).stdout).toBe("failed");
  });
});
