import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
// @ts-expect-error: a plain-JavaScript script of the repository, without types
import { repositoryUrl } from "../../scripts/pack.mjs";
import { installIntoEmptyProject } from "./pack.js";

const REPOSITORY_ROOT = join(import.meta.dirname, "../..");

// The packed package, installed into an empty folder, is what users get: prove it loads both ways.
describe("the packed tarball in an empty project", () => {
  let dir: string;
  beforeAll(() => {
    dir = installIntoEmptyProject(inject("tarball"));
  }, 120_000);

  const run = (file: string, source: string) => {
    writeFileSync(join(dir, file), source);
    return execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8" }).trim();
  };

  // msw is an optional peer that only prospectkit/mock needs: this project has none, so these load
  // prospectkit/mock/core; prospectkit/mock is loaded with msw installed by test/conformance/msw2.test.ts.
  it("can be imported as ESM, with prospectkit/mock/core resolving without msw", () => {
    const out = run(
      "esm.mjs",
      `import * as sdk from "prospectkit"; import * as mock from "prospectkit/mock/core";
       console.log(JSON.stringify([typeof sdk.ProspectLogCreate.safeParse, sdk.WEBHOOK_EVENT_KINDS.length, Object.keys(mock).length > 0]));`,
    );
    expect(JSON.parse(out)).toEqual(["function", 6, true]);
  });

  it("can be required as CommonJS, with prospectkit/mock/core resolving without msw", () => {
    const out = run(
      "cjs.cjs",
      `const sdk = require("prospectkit"); const mock = require("prospectkit/mock/core");
       console.log(JSON.stringify([typeof sdk.ProspectLogCreate.safeParse, sdk.WEBHOOK_EVENT_KINDS.length, Object.keys(mock).length > 0]));`,
    );
    expect(JSON.parse(out)).toEqual(["function", 6, true]);
  });

  const SUBPATHS = [
    "prospectkit",
    "prospectkit/mock",
    "prospectkit/mock/core",
    "prospectkit/mock/server",
    "prospectkit/mock/vitest",
    "prospectkit/package.json",
  ];

  it("resolves every subpath under import and under require", () => {
    const esm = run("resolve.mjs", `console.log(JSON.stringify(${JSON.stringify(SUBPATHS)}.map((s) => import.meta.resolve(s))));`);
    const cjs = run("resolve.cjs", `console.log(JSON.stringify(${JSON.stringify(SUBPATHS)}.map((s) => require.resolve(s))));`);
    const rel = (paths: string) => (JSON.parse(paths) as string[]).map((p) => p.slice(p.lastIndexOf("node_modules/prospectkit/") + 25));
    expect(rel(esm)).toEqual([
      "dist/index.js",
      "dist/mock/index.js",
      "dist/mock/core.js",
      "dist/mock/server/index.js",
      "dist/mock/vitest.js",
      "package.json",
    ]);
    expect(rel(cjs)).toEqual([
      "dist/index.cjs",
      "dist/mock/index.cjs",
      "dist/mock/core.cjs",
      "dist/mock/server/index.cjs",
      "dist/mock/vitest.cjs",
      "package.json",
    ]);
  });

  it("ships only dist, the guides and the package metadata", () => {
    const out = execFileSync("tar", ["-tzf", inject("tarball")], { encoding: "utf8" })
      .trim()
      .split("\n");
    expect(
      out.filter(
        (path) => !/^package\/(dist\/|docs\/([\w-]+\.md|images\/[\w-]+\.png)$|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(path),
      ),
    ).toEqual([]);
  });

  // Issue 16.7: what the package points to is in the package.
  it("every relative link of the shipped README and guides leads to a file that is shipped", () => {
    const root = join(dir, "node_modules/prospectkit");
    const pages = [
      "README.md",
      ...readdirSync(join(root, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    expect(pages).toEqual(expect.arrayContaining(["README.md", "docs/server.md", "docs/testing.md", "docs/behaviour.md"]));
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      const text = readFileSync(join(root, page), "utf8").replace(/```[\s\S]*?```/g, "");
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        links++;
        if (!existsSync(join(root, dirname(page), target!.replace(/#.*$/, "")))) broken.push(`${page} -> ${target}`);
      }
    }
    expect(links).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });

  it("prospectkit-mock --help names a guide that exists in the installed package", () => {
    const help = execFileSync(process.execPath, [join(dir, "node_modules/.bin/prospectkit-mock"), "--help"], { encoding: "utf8" });
    const guide = /^Docs: (\S+);/m.exec(help)?.[1];
    expect(guide).toBe(realpathSync(join(dir, "node_modules/prospectkit/docs/server.md")));
    expect(readFileSync(guide!, "utf8")).toMatch(/^# /);
  });

  // Issue 34.6: the registry's package page shows the README, and follows no relative link there.
  it("the shipped README links only absolutely: into the repository at the release's tag, each to a file the repository has", () => {
    const manifest = JSON.parse(readFileSync(join(dir, "node_modules/prospectkit/package.json"), "utf8"));
    const repository: string = repositoryUrl(manifest);
    const pages = `${repository}/blob/v${manifest.version}/`;
    const raw = `${repository.replace("https://github.com/", "https://raw.githubusercontent.com/")}/v${manifest.version}/`;
    const readme = readFileSync(join(dir, "node_modules/prospectkit/README.md"), "utf8").replace(/```[\s\S]*?```/g, "");
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => !target.startsWith("#"));
    expect(targets.filter((target) => !/^https:\/\//.test(target))).toEqual([]);
    const intoRepository = targets.filter((target) => target.startsWith(pages) || target.startsWith(raw));
    expect(intoRepository.length).toBeGreaterThanOrEqual(10);
    expect(intoRepository.some((target) => target.startsWith(raw) && target.endsWith(".png"))).toBe(true);
    const missing = intoRepository.filter(
      (target) => !existsSync(join(REPOSITORY_ROOT, target.slice(target.startsWith(pages) ? pages.length : raw.length).replace(/#.*$/, ""))),
    );
    expect(missing).toEqual([]);
  });

  it("package.json leads back to the source: repository, home page and issue tracker, one GitHub repository", () => {
    const manifest = JSON.parse(readFileSync(join(dir, "node_modules/prospectkit/package.json"), "utf8"));
    const repository: string = repositoryUrl(manifest);
    expect(repository).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(manifest.repository).toEqual({ type: "git", url: `git+${repository}.git` });
    expect(manifest.homepage).toBe(`${repository}#readme`);
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` });
  });
});
