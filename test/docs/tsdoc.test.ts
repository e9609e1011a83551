/**
 * Every public export is documented for the reference (`npm run docs`): typedoc runs with the
 * project's typedoc.json (warnings are errors, so every export has a summary), writes its JSON, and
 * every exported function must have a summary, a `@param` for each parameter, `@throws` (what it
 * throws, or that it throws nothing) and an `@example`; every exported class a summary and an
 * `@example`. Over the four entry points: prospectkit, prospectkit/mock, prospectkit/mock/core,
 * prospectkit/mock/server.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "./markdown.js";

const run = promisify(execFile);

interface Comment {
  summary?: { text: string }[];
  blockTags?: { tag: string }[];
}
interface Reflection {
  name: string;
  kind: number;
  comment?: Comment;
  signatures?: (Reflection & { parameters?: Reflection[] })[];
  children?: Reflection[];
}

const KIND = { module: 2, function: 64, class: 128 } as const;
const summary = (comment: Comment | undefined) =>
  (comment?.summary ?? [])
    .map((part) => part.text)
    .join("")
    .trim();
const tags = (comment: Comment | undefined) => new Set((comment?.blockTags ?? []).map((tag) => tag.tag));

/** What is missing from one exported function or class, e.g. `["@param path", "@example"]`. */
function missing(reflection: Reflection): string[] {
  if (reflection.kind === KIND.class) {
    return [...(summary(reflection.comment) ? [] : ["summary"]), ...(tags(reflection.comment).has("@example") ? [] : ["@example"])];
  }
  return (reflection.signatures ?? []).flatMap((signature) => [
    ...(summary(signature.comment) ? [] : ["summary"]),
    ...(signature.parameters ?? []).filter((parameter) => !summary(parameter.comment)).map((parameter) => `@param ${parameter.name}`),
    ...["@throws", "@example"].filter((tag) => !tags(signature.comment).has(tag)),
  ]);
}

let modules: Reflection[] = [];

beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), "prospectkit-typedoc-")), "api.json");
  // typedoc.json: the entry points, warnings as errors, notDocumented validation. A warning fails here.
  await run(process.execPath, [join(ROOT, "node_modules/typedoc/bin/typedoc"), "--json", out, "--out", join(out, "..", "html")], { cwd: ROOT }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      throw new TypeError(`typedoc failed (warnings are errors):\n${error.stdout ?? ""}${error.stderr ?? ""}`);
    },
  );
  modules = (JSON.parse(readFileSync(out, "utf8")) as Reflection).children ?? [];
}, 300_000); // typedoc takes 20 s on a quiet 2-core machine; beside another CPU-bound file of its project, on a loaded one, over 120 s

describe("the API reference", () => {
  it("covers the five entry points", () => {
    expect(modules.map((module) => module.name).sort()).toEqual([
      "prospectkit",
      "prospectkit/mock",
      "prospectkit/mock/core",
      "prospectkit/mock/server",
      "prospectkit/mock/vitest",
    ]);
  });

  it("documents every exported function (summary, @param each, @throws, @example) and class (summary, @example)", () => {
    const gaps = modules.flatMap((module) =>
      (module.children ?? [])
        .filter((child) => child.kind === KIND.function || child.kind === KIND.class)
        .map((child) => ({ name: `${module.name}: ${child.name}`, missing: missing(child) }))
        .filter((entry) => entry.missing.length > 0)
        .map((entry) => `${entry.name} lacks ${entry.missing.join(", ")}`),
    );
    expect(gaps).toEqual([]);
  });

  it("has functions and classes to check (the walk sees the exports)", () => {
    const count = (kind: number) => modules.flatMap((module) => module.children ?? []).filter((child) => child.kind === kind).length;
    // 12 since the public surface was narrowed on purpose (toFieldErrors, toJsonPointer, createServerApp and
    // createOpenApiDocument left it; test/package/exports.test.ts pins the list).
    expect(count(KIND.function)).toBeGreaterThanOrEqual(12);
    expect(count(KIND.class)).toBeGreaterThanOrEqual(15);
  });
});
