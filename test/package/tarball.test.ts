import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { installIntoEmptyProject, packTarball } from "./pack.js";

// The packed package, installed into an empty folder, is what users get: prove it loads both ways.
describe("the packed tarball in an empty project", () => {
  let dir: string;
  beforeAll(() => {
    dir = installIntoEmptyProject(packTarball());
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

  const SUBPATHS = ["prospectkit", "prospectkit/mock", "prospectkit/mock/core", "prospectkit/mock/server", "prospectkit/package.json"];

  it("resolves every subpath under import and under require", () => {
    const esm = run("resolve.mjs", `console.log(JSON.stringify(${JSON.stringify(SUBPATHS)}.map((s) => import.meta.resolve(s))));`);
    const cjs = run("resolve.cjs", `console.log(JSON.stringify(${JSON.stringify(SUBPATHS)}.map((s) => require.resolve(s))));`);
    const rel = (paths: string) => (JSON.parse(paths) as string[]).map((p) => p.slice(p.lastIndexOf("node_modules/prospectkit/") + 25));
    expect(rel(esm)).toEqual(["dist/index.js", "dist/mock/index.js", "dist/mock/core.js", "dist/mock/server/index.js", "package.json"]);
    expect(rel(cjs)).toEqual(["dist/index.cjs", "dist/mock/index.cjs", "dist/mock/core.cjs", "dist/mock/server/index.cjs", "package.json"]);
  });

  it("ships only dist and the package metadata", () => {
    const out = execFileSync("tar", ["-tzf", packTarball()], { encoding: "utf8" }).trim().split("\n");
    expect(out.filter((path) => !/^package\/(dist\/|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(path))).toEqual([]);
  });
});
