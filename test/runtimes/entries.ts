/**
 * The per-runtime entries around THE scenario. Each entry loads the packed package the way its
 * runtime's users do (ESM `import`, CJS `require`, or an esbuild bundle for workerd and the
 * browser), passes it to `scenario()` with the harness's context inlined, and reports the result:
 * a marked line on stdout, the body of a worker's response, or a global a page sets.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as esbuild from "esbuild";

/** Starts the one stdout line that carries a scenario's JSON result. */
export const RESULT_MARK = "SCENARIO_RESULT ";

const SOURCES = resolve(import.meta.dirname);

/** How an entry loads the package and where its result goes. */
export type EntryKind = "esm" | "cjs" | "worker" | "browser";

/** Where an entry takes the package's modules from, and which scenario it runs. */
export interface EntrySpec {
  /** The scenario file beside this one, without `.ts`; it exports a function `scenario`. */
  readonly scenario: string;
  /** Bindings passed to the scenario in order, each `[local name, module specifier]`. */
  readonly modules: readonly (readonly [string, string])[];
}

/** The runtime scenario: `scenario(prospectkit, context)`. */
export const SDK_ENTRY: EntrySpec = { scenario: "scenario", modules: [["prospectkit", "prospectkit"]] };

function loads(kind: EntryKind, spec: EntrySpec): string {
  const ext = kind === "cjs" ? "cjs" : "mjs";
  const all: (readonly [string, string])[] = [...spec.modules, ["scenarioModule", `./${spec.scenario}.${ext}`]];
  return kind === "cjs"
    ? all.map(([name, from]) => `const ${name} = require(${JSON.stringify(from)});`).join("\n")
    : all.map(([name, from]) => `import * as ${name} from ${JSON.stringify(from)};`).join("\n");
}

function call(spec: EntrySpec, context: object): string {
  return `scenarioModule.scenario(${spec.modules.map(([name]) => name).join(", ")}, ${JSON.stringify(context)})`;
}

/**
 * Writes an entry file into a consumer project and returns its file name.
 *
 * @param dir - the throw-away project that has the tarball installed
 * @param kind - how the entry loads the package
 * @param spec - the scenario and the modules it takes
 * @param context - the scenario's context, inlined as JSON
 * @returns the entry's file name inside `dir`
 */
export function writeEntry(dir: string, kind: EntryKind, spec: EntrySpec, context: object): string {
  const report = {
    esm: `console.log(${JSON.stringify(RESULT_MARK)} + JSON.stringify(await ${call(spec, context)}));`,
    cjs: `${call(spec, context)}.then((result) => console.log(${JSON.stringify(RESULT_MARK)} + JSON.stringify(result)), (error) => { console.error(error); process.exitCode = 1; });`,
    worker: `export default { async fetch() {
  try { return new Response(JSON.stringify(await ${call(spec, context)}), { headers: { "content-type": "application/json" } }); }
  catch (error) { return new Response(String(error && error.stack || error), { status: 500 }); }
} };`,
    browser: `${call(spec, context)}.then((result) => { globalThis.__scenario = { result }; }, (error) => { globalThis.__scenario = { error: String(error && error.stack || error) }; });`,
  }[kind];
  const file = `${spec.scenario}.${kind}-entry.${kind === "cjs" ? "cjs" : "mjs"}`;
  writeFileSync(join(dir, file), `${loads(kind, spec)}\n${report}\n`);
  return file;
}

/**
 * Compiles a file beside this one (a scenario) from TypeScript into the project,
 * once as ESM (`.mjs`) and once as CommonJS (`.cjs`). Its local helpers are bundled in; every
 * package (the packed prospectkit, msw) stays an import, so the runtime's own module loader
 * resolves it from the project's node_modules.
 *
 * @param dir - the consumer project
 * @param file - the file beside this one, without `.ts`
 */
export function compileIntoProject(dir: string, file: string): void {
  for (const format of ["esm", "cjs"] as const) {
    esbuild.buildSync({
      entryPoints: [join(SOURCES, `${file}.ts`)],
      outfile: join(dir, `${file}.${format === "esm" ? "mjs" : "cjs"}`),
      bundle: true,
      packages: "external",
      format,
      platform: "neutral",
      target: "es2022",
      logLevel: "error",
    });
  }
}

/**
 * Bundles an entry (and the packed package it imports from the project's node_modules) into one
 * ES module, for the runtimes that take no node_modules: workerd and the browser.
 *
 * @param dir - the consumer project
 * @param entry - the entry's file name inside `dir`
 * @param conditions - the package export conditions of the target runtime
 * @returns the bundle's file name inside `dir`
 */
export async function bundleEntry(dir: string, entry: string, conditions: string[]): Promise<string> {
  const outfile = entry.replace(/\.mjs$/, ".bundle.mjs");
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions,
    target: "es2022",
    logLevel: "error",
  });
  return outfile;
}

/**
 * Reads the scenario's result from a process's stdout.
 *
 * @param stdout - everything the entry printed
 * @returns the parsed JSON of the line that starts with {@link RESULT_MARK}
 * @throws TypeError when no line carries a result
 */
export function parseResult(stdout: string): unknown {
  const line = stdout.split("\n").find((text) => text.startsWith(RESULT_MARK));
  if (line === undefined) throw new TypeError(`the scenario printed no result line; stdout was:\n${stdout}`);
  return JSON.parse(line.slice(RESULT_MARK.length)) as unknown;
}
