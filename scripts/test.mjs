/**
 * `npm test`: every check of the project, in order, stopping at the first that fails: lint and
 * format, types, the build, every vitest project (the API reference among them: typedoc with
 * warnings as errors is run, once, by test/docs/tsdoc.test.ts), the package checks (publint, attw)
 * and the size budgets. Arguments go to vitest (`npm test -- --project fast`). With
 * `--fast` first (`npm run test:fast`) it runs only the projects that run from the sources
 * (`FAST_PROJECTS` of test/projects.ts), in reused workers. Output to a file or a CI log
 * carries no colour codes: the tools colour it in a terminal only (vitest colours whenever TERM is
 * set, hence NO_COLOR). The steps whose success is a long listing (tsup's file sizes, attw's table)
 * print one line when they pass and their whole output when they fail. At the end, passed or not, it
 * prints where the time went: each step's time, and the five slowest test files (from vitest's
 * JSON report, test/.report.json of the folder it runs in), so the next slow test is seen.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { relative, resolve } from "node:path";
import { FAST_PROJECTS } from "../test/projects.ts";

const plain = !process.stdout.isTTY;
const env = plain ? { ...process.env, NO_COLOR: "1" } : process.env;
const fast = process.argv[2] === "--fast";
// The projects that run from the sources; how their files share the machine (reused workers, more
// workers than cores) is their own options' (PROJECT_OPTIONS of test/projects.ts), the same in npm test.
const fastProjects = FAST_PROJECTS.flatMap((name) => ["--project", name]);
const vitestArgs = fast ? [...fastProjects, ...process.argv.slice(3)] : process.argv.slice(2);
const all = [
  ["biome", "ci", ...(plain ? ["--colors=off"] : []), "."],
  ["tsc", "--noEmit"],
  ["tsup"],
  ["vitest", "run", ...vitestArgs],
  ["publint", "--strict"],
  ["attw", "--pack", "."],
  ["size-limit"],
];
const steps = fast ? all.filter(([command]) => command === "vitest") : all;
/** The steps kept quiet on success: what they print then is a listing nobody reads. */
const QUIET = new Set(["tsup", "attw"]);

/** Each step that ran, and its time in milliseconds. */
const timings = [];
/** vitest's JSON report (vitest.config.ts), read when this run's vitest wrote it. */
const REPORT = resolve("test/.report.json");
let vitestStarted;

/** The five slowest test files of this run's report (none when vitest did not write one). */
function slowestFiles() {
  try {
    if (vitestStarted === undefined || statSync(REPORT).mtimeMs < vitestStarted) return [];
    const report = JSON.parse(readFileSync(REPORT, "utf8"));
    return report.testResults
      .map((file) => ({ file: relative(process.cwd(), file.name), ms: file.endTime - file.startTime }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5);
  } catch {
    return [];
  }
}

/** Prints where the time went. */
function printTimings() {
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
  const total = timings.reduce((sum, [, ms]) => sum + ms, 0);
  const lines = [...timings.map(([command, ms]) => `${seconds(ms)}  ${command}`), `${seconds(total)}  in all`];
  const files = slowestFiles();
  if (files.length > 0) lines.push("", "The five slowest test files:", ...files.map(({ file, ms }) => `${seconds(ms)}  ${file}`));
  process.stdout.write(`\nTime by step:\n${lines.join("\n")}\n`);
}

for (const [command, ...args] of steps) {
  process.stdout.write(`\n> ${[command, ...args].join(" ")}\n`);
  const quiet = QUIET.has(command);
  const started = performance.now();
  if (command === "vitest") vitestStarted = Date.now();
  const { status, error, stdout, stderr } = spawnSync(command, args, {
    stdio: quiet ? ["inherit", "pipe", "pipe"] : "inherit",
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (error !== undefined) throw error;
  timings.push([command, performance.now() - started]);
  // A quiet step that passed says so in one line (and still shows any warning it wrote to stderr); one that failed shows all.
  if (quiet && status === 0) process.stdout.write(`${command}: passed (its output is shown when it fails)\n${stderr}`);
  else if (quiet) process.stdout.write(`${stdout}${stderr}`);
  if (status !== 0) {
    printTimings();
    process.exit(status ?? 1);
  }
}
printTimings();
