/**
 * Issue 34.12: the package as it would be published. `npm publish --dry-run` accepts the packed
 * tarball (CI runs the same in .ci/run), publishing exactly the tarball's files, and the manifest
 * says how: public, with signed build provenance (`publishConfig`).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";

const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"));

describe("npm publish --dry-run of the packed tarball", () => {
  let tarball: string;
  let published: { id: string; files: { path: string }[] };
  beforeAll(() => {
    tarball = inject("tarball");
    // The user's npm config (a token, a registry) stays out: only what the package says counts.
    const output = execFileSync("npm", ["publish", "--dry-run", "--json", "--registry=https://registry.npmjs.org/", tarball], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    published = JSON.parse(output)[manifest.name];
  }, 120_000);

  it("passes, publishing prospectkit at the repository's version", () => {
    expect(published.id).toBe(`${manifest.name}@${manifest.version}`);
  });

  it("publishes the tarball's files: the built package, the guides, the manifest and the README", () => {
    const files = published.files.map((file) => file.path);
    const inTarball = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((path) => path.replace(/^package\//, ""));
    expect([...files].sort()).toEqual([...inTarball].sort());
    expect(files).toEqual(expect.arrayContaining(["package.json", "README.md", "dist/index.js", "dist/mock/server/cli.js", "docs/server.md"]));
  });

  it("publishConfig: public, with signed build provenance", () => {
    expect(manifest.publishConfig).toEqual({ access: "public", provenance: true });
  });
});
