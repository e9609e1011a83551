/**
 * Users' own declaration emit: a library that exports values inferred from the SDK (a client, an
 * error, a result) runs `tsc` with `declaration: true`, and its `.d.ts` must be writable without
 * naming anything the package keeps private. A private type in the package's public declarations
 * (such as the error brand's `unique symbol`, which every error class once declared as a getter)
 * makes that emit fail with TS4023/TS2742 as soon as a user's type is expanded structurally, and
 * made every build warn. Compiled with the real `tsc` in a throw-away project whose
 * `node_modules/prospectkit` links to this package (its exports point at the BUILT dist/).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const TSC = resolve(ROOT, "node_modules/typescript/bin/tsc");

/** A user's library: every export's type is inferred from the SDK, some of them expanded structurally. */
const USER_LIBRARY = `
import { ConfigurationError, createBaseClient, createClient, getPage, NotFoundError, ProspectKitError, RateLimitError } from "prospectkit";

export const client = createClient({ apiKey: "sk_test", baseUrl: "http://127.0.0.1:4010" });
export const base = createBaseClient({ apiKey: "sk_test", baseUrl: "http://127.0.0.1:4010" });
export const created = client.createProspectLog({ source: "crm", payload: {} });
export const page = await getPage(base, { pageGroupId: "g", pageId: "p" });
export const withResponse = await client.getPage({ pageGroupId: "g", pageId: "p" }).withResponse();
export const configurationError = new ConfigurationError("bad configuration");
export const caught = await client.getPage({ pageGroupId: "g", pageId: "p" }).catch((error: unknown) => (NotFoundError.is(error) ? error : undefined));
export function rateLimited(error: unknown) {
  return RateLimitError.is(error) ? error : undefined;
}
// Expanded structurally: every property of the error's type is written out in the user's .d.ts.
export const errorFields = { ...configurationError };
export const loggable = (error: ProspectKitError) => ({ ...error, at: Date.now() });
export class AppNotFoundError extends NotFoundError {}
export const errorClasses = { NotFoundError, RateLimitError };
`;

describe("a user's declaration emit names nothing private of the package", () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(resolve(ROOT, "dist/index.d.ts"))) throw new TypeError("dist/ is missing: run `npm run build` first (npm test does)");
    dir = mkdtempSync(join(tmpdir(), "prospectkit-declarations-"));
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(ROOT, join(dir, "node_modules/prospectkit"), "dir");
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "user-library", private: true, type: "module" }));
    writeFileSync(join(dir, "index.ts"), USER_LIBRARY);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          declaration: true,
          emitDeclarationOnly: true,
          outDir: "out",
          skipLibCheck: false,
          types: [],
          lib: ["ES2023", "DOM"],
        },
        files: ["index.ts"],
      }),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("tsc --declaration compiles it without an error", () => {
    let output = "";
    try {
      execFileSync(process.execPath, [TSC, "-p", dir, "--pretty", "false"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
    const emitted = readFileSync(join(dir, "out/index.d.ts"), "utf8");
    // The user's .d.ts reaches the package through its public entry only, never a chunk of dist/.
    const specifiers = [...emitted.matchAll(/(?:import\(|from )"([^"]*)"/g)].map((match) => match[1]);
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((specifier) => specifier !== "prospectkit")).toEqual([]);
  });
});

/** The names a declaration file exports (`export { a as b, c }`, `export declare ... name`). */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, list] of text.matchAll(/export (?:type )?\{([^}]*)\}/g))
    for (const item of list!.split(",")) {
      const name = item
        .trim()
        .split(/\s+as\s+/)
        .at(-1)
        ?.replace(/^type\s+/, "");
      if (name) names.add(name);
    }
  for (const [, name] of text.matchAll(/export declare (?:const|function|class|type|interface|abstract class) (\w+)/g)) names.add(name!);
  return names;
}

describe("the public declarations reference only public types", () => {
  const entries = ["index.d.ts", "mock/index.d.ts", "mock/core.d.ts", "mock/server/index.d.ts"].map((path) => join(ROOT, "dist", path));

  it("every type an entry's .d.ts imports from a shared chunk is exported by a public entry", () => {
    const exported = new Set(entries.flatMap((file) => [...exportedNames(readFileSync(file, "utf8"))]));
    const privateTypes: string[] = [];
    for (const file of entries) {
      for (const [, list, from] of readFileSync(file, "utf8").matchAll(/^import \{([^}]*)\} from '(\.[^']*)';$/gm)) {
        if (!/[\\/]?[\w-]+-[\w-]{8}\.js$/.test(from!)) continue; // a chunk (name-hash.js), not another entry
        for (const item of list!.split(",")) {
          const name = item
            .trim()
            .split(/\s+as\s+/)
            .at(-1)!;
          if (!exported.has(name)) privateTypes.push(`${file.slice(ROOT.length + 1)}: ${name}`);
        }
      }
    }
    expect(privateTypes).toEqual([]);
  });

  it("no declaration file of dist/ holds a unique symbol (a type no user can name)", () => {
    const files = readdirSync(join(ROOT, "dist"), { recursive: true, encoding: "utf8" }).filter((name) => /\.d\.c?ts$/.test(name));
    expect(files.length).toBeGreaterThan(4);
    expect(files.filter((name) => readFileSync(join(ROOT, "dist", name), "utf8").includes("unique symbol"))).toEqual([]);
  });
});
