/** README: the mock quick start's snippets run as written (imports pointed at the sources). */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

const root = join(import.meta.dirname, "../..");
const SOURCES: Record<string, string> = {
  prospectkit: "src/index.ts",
  "prospectkit/mock": "mock/index.ts",
  "prospectkit/mock/core": "mock/core.ts",
};

/** The `index`-th ```ts block under `heading` in README.md, importing the sources instead of the package. */
function snippet(heading: string, index: number): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const code = [...section.matchAll(/```ts\n([\s\S]*?)```/g)][index]?.[1];
  if (!code) throw new TypeError(`README.md has no ts block ${index} under ${heading}`);
  return code.replace(/from "(prospectkit[^"]*)"/g, (match, name: string) =>
    SOURCES[name] ? `from ${JSON.stringify(join(root, SOURCES[name]))}` : match,
  );
}

async function run(code: string): Promise<unknown[][]> {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  const file = join(mkdtempSync(join(tmpdir(), "prospectkit-mock-readme-")), "snippet.ts");
  writeFileSync(file, code);
  await import(file);
  return log.mock.calls;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("README: the mock quick start runs as written", () => {
  it("api.fetch with the SDK: seed, call, inspect, arm faults, reset", async () => {
    expect(await run(snippet("## Mock quick start", 0))).toEqual([["Pricing"], [expect.stringMatching(/^prospect_[0-9a-z]{26}$/)], [201]]);
  });

  it("the MSW handlers intercept the global fetch (closed again after the snippet)", async () => {
    const code = `${snippet("## Mock quick start", 1)}
const response = await fetch(api.baseUrl + "/v0/prospect_logs", { method: "POST" });
console.log(response.status, (await response.json()).code);
server.close();`;
    expect(await run(code)).toEqual([[401, "missing_api_key"]]);
  });
});
