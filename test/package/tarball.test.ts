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

  it("ships only dist and the package metadata", () => {
    const out = execFileSync("tar", ["-tzf", packTarball()], { encoding: "utf8" }).trim().split("\n");
    expect(out.filter((path) => !/^package\/(dist\/|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(path))).toEqual([]);
  });
});
