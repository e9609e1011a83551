/**
 * The handler is a list of steps (CONTRIBUTING.md, "Adding a step"): each step is one file under
 * mock/pipeline/steps/, their order is written in one place (mock/pipeline/handler.ts), and the
 * core knows no adapter: no file of the pipeline imports one or names an adapter's field. Each rule
 * is a function of the files' text, so that each is also shown failing on a file that breaks it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const HANDLER = "mock/pipeline/handler.ts";
const STEPS = "mock/pipeline/steps/";
/** What the adapters alone know: the proxy's and the server's request-hook fields, the console's marking header. */
const ADAPTER_FIELDS = ["violations", "answeredBy", "x-prospectkit-console", "CONSOLE_READ_HEADER", "fromConsole"];
/** The adapters' folders and files (the pipeline sits below them all). */
const ADAPTERS = ["mock/server/", "mock/msw/", "mock/browser/", "mock/console/", "mock/index.ts", "mock/create-mock-api.ts"];

/** The project's files under mock/, by path (`/`-separated), with their text. */
type Files = ReadonlyMap<string, string>;

function readMock(): Files {
  const files = readdirSync(join(ROOT, "mock"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  return new Map(files.map((file) => [`mock/${file.split(/[\\/]/).join("/")}`, readFileSync(join(ROOT, "mock", file), "utf8")]));
}

/** A file's text without its comments (TSDoc mentions the adapters; code must not). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");

/** Each import of a file: its target (resolved to a repository path) and whether it is type-only. */
function importsOf(file: string, text: string): { target: string; typeOnly: boolean }[] {
  const dir = file.split("/").slice(0, -1);
  return [...code(text).matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\sfrom\s*["'](\.[^"']+)["']/gm)].map((match) => {
    const parts = [...dir];
    for (const part of match[3]!.split("/")) {
      if (part === "..") parts.pop();
      else if (part !== ".") parts.push(part);
    }
    return { target: parts.join("/").replace(/\.js$/, ".ts"), typeOnly: match[2] !== undefined };
  });
}

/** Step files the handler does not list, and step files that import another step. */
function stepFileFindings(files: Files): string[] {
  const steps = [...files.keys()].filter((file) => file.startsWith(STEPS));
  const listed = new Set(importsOf(HANDLER, files.get(HANDLER) ?? "").map((i) => i.target));
  return steps.flatMap((step) => [
    ...(listed.has(step) ? [] : [`${step}: not listed in ${HANDLER}`]),
    ...importsOf(step, files.get(step)!)
      .filter((i) => i.target.startsWith(STEPS))
      .map((i) => `${step}: imports the step ${i.target}`),
    ...(step.slice(STEPS.length).includes("/") ? [`${step}: a step is one file right under ${STEPS}`] : []),
  ]);
}

/** Files other than the handler that put steps in an order: a value imported from a step, or a call of `compose`. */
function orderFindings(files: Files): string[] {
  return [...files].flatMap(([file, text]) => {
    if (file === HANDLER || file.startsWith(STEPS)) return [];
    return [
      ...importsOf(file, text)
        .filter((i) => i.target.startsWith(STEPS) && !i.typeOnly)
        .map((i) => `${file}: takes the step ${i.target} (only ${HANDLER} orders steps)`),
      ...(/\bcompose\(/.test(code(text)) && file !== "mock/pipeline/exchange.ts" ? [`${file}: composes steps`] : []),
    ];
  });
}

/** Files of the pipeline that import an adapter or name one of an adapter's fields. */
function adapterFindings(files: Files): string[] {
  return [...files].flatMap(([file, text]) => {
    if (!file.startsWith("mock/pipeline/")) return [];
    const body = code(text);
    return [
      ...importsOf(file, text)
        .filter((i) => ADAPTERS.some((adapter) => i.target === adapter || i.target.startsWith(adapter)))
        .map((i) => `${file}: imports the adapter ${i.target}`),
      ...ADAPTER_FIELDS.filter((field) => body.includes(field)).map((field) => `${file}: names ${field}`),
    ];
  });
}

const files = readMock();
/** The real files with one file changed (or added). */
const breaking = (file: string, text: string): Files => new Map([...files, [file, text]]);

describe("the handler is a list of steps", () => {
  it("each step is one file right under mock/pipeline/steps/, listed by the handler, importing no other step", () => {
    expect([...files.keys()].filter((file) => file.startsWith(STEPS)).length).toBeGreaterThanOrEqual(8);
    expect(stepFileFindings(files)).toEqual([]);
  });

  it("the order of the steps is written only in mock/pipeline/handler.ts", () => {
    expect(orderFindings(files)).toEqual([]);
  });

  it("no file of the pipeline imports an adapter or names an adapter's field", () => {
    expect(adapterFindings(files)).toEqual([]);
  });
});

describe("each rule fails when it is broken", () => {
  it.each([
    ["a step file the handler does not list", stepFileFindings, `${STEPS}unused.ts`, "export const unused = () => {};"],
    ["a step that imports another step", stepFileFindings, `${STEPS}auth.ts`, `import { body } from "./body.js";\nexport const auth = body;`],
    ["a step in a subfolder", stepFileFindings, `${STEPS}api/auth.ts`, "export const auth = () => {};"],
    ["an adapter that takes a step itself", orderFindings, "mock/server/node.ts", `import { auth } from "../pipeline/steps/auth.js";`],
    ["an adapter that composes its own steps", orderFindings, "mock/server/proxy.ts", "const chain = compose([a, b]);"],
    [
      "the core importing an adapter's type",
      adapterFindings,
      "mock/pipeline/exchange.ts",
      `import type { AnsweredRequest } from "../server/answered.js";`,
    ],
    ["the core naming the proxy's field", adapterFindings, "mock/pipeline/steps/log.ts", "const entry = { answeredBy: 'mock' };"],
    ["the core naming the console's header", adapterFindings, "mock/pipeline/steps/log.ts", "x.request.headers.has('x-prospectkit-console');"],
  ] as const)("%s", (_rule, check, file, text) => {
    expect(check(breaking(file, text)).length).toBeGreaterThan(0);
  });

  it("a type-only import of a step (the state file's Durability) is not an order", () => {
    expect(orderFindings(breaking("mock/server/extra.ts", `import type { Durability } from "../pipeline/steps/durability.js";`))).toEqual([]);
  });
});
