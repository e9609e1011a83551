/**
 * The named cases of the runtime matrix: for each, the runtime whose binary it needs and how it
 * runs a scenario in a consumer project (the packed tarball installed into a throw-away folder).
 */
import { join } from "node:path";
import { runInChromium } from "./chromium.ts";
import { type EntryKind, type EntrySpec, parseResult, writeEntry } from "./entries.ts";
import { runToEnd } from "./processes.ts";
import type { RuntimeId } from "./runtimes.ts";
import { runInWorkerd } from "./workerd.ts";

/** One case of the matrix. */
export interface RuntimeCase {
  /** The case's name, also the `runtime` the scenario echoes back. */
  readonly name: string;
  /** The runtime whose binary the case runs. */
  readonly runtime: RuntimeId;
  /**
   * The engine the scenario must report, from the version the runtime's binary printed.
   *
   * @param version - the first line of `<binary> --version`
   */
  readonly host: (version: string) => string;
  /**
   * Runs a scenario and returns its result.
   *
   * @param bin - the runtime's binary
   * @param dir - the consumer project
   * @param spec - the scenario and the modules it takes
   * @param context - the scenario's context, inlined into the entry
   */
  readonly run: (bin: string, dir: string, spec: EntrySpec, context: object) => Promise<unknown>;
}

/** Runs an entry as a script with a command line around it and reads its result line. */
function script(kind: EntryKind, args: (entry: string, dir: string) => string[], env: (dir: string) => Record<string, string> = () => ({})) {
  return async (bin: string, dir: string, spec: EntrySpec, context: object): Promise<unknown> => {
    const entry = writeEntry(dir, kind, spec, context);
    const { stdout } = await runToEnd(bin, args(entry, dir), { cwd: dir, env: env(dir) });
    return parseResult(stdout);
  };
}

const nodeHost = (version: string) => `node ${version.replace(/^v/, "")}`;

const node = (runtime: "node20" | "node22" | "node24" | "node26"): RuntimeCase[] => [
  { name: `${runtime} import`, runtime, host: nodeHost, run: script("esm", (entry) => [entry]) },
  { name: `${runtime} require`, runtime, host: nodeHost, run: script("cjs", (entry) => [entry]) },
];

/** Every case, in the order they run. */
export const RUNTIME_CASES: readonly RuntimeCase[] = [
  ...node("node20"),
  ...node("node22"),
  ...node("node24"),
  ...node("node26"),
  // --no-install: resolve from the project's node_modules only, never fetch a package.
  { name: "bun", runtime: "bun", host: (version) => `bun ${version}`, run: script("esm", (entry) => ["--no-install", "run", entry]) },
  {
    name: "deno",
    runtime: "deno",
    host: (version) => `deno ${version.split(" ")[1]}`,
    // The project's node_modules as npm laid it out (manual), only loopback and the project
    // readable, and Deno's cache inside the throw-away project.
    run: script(
      "esm",
      (entry, dir) => ["run", "--node-modules-dir=manual", "--no-lock", "--allow-net=127.0.0.1", `--allow-read=${dir}`, entry],
      (dir) => ({ DENO_DIR: join(dir, ".deno"), DENO_NO_UPDATE_CHECK: "1" }),
    ),
  },
  {
    name: "workerd",
    runtime: "workerd",
    // A worker cannot see workerd's version; its user agent names the platform.
    host: () => "workerd",
    run: (bin, dir, spec, context) => runInWorkerd(bin, dir, writeEntry(dir, "worker", spec, context)),
  },
  {
    name: "chromium",
    runtime: "chromium",
    host: (version) => `chrome ${/ (\d+)\./.exec(version)?.[1]}`,
    run: (bin, dir, spec, context) => runInChromium(bin, dir, writeEntry(dir, "browser", spec, context)),
  },
];
