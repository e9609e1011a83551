/**
 * `npm test`: every check of the project, in order, stopping at the first that fails: lint and
 * format, types, the build, every vitest project, the package checks (publint, attw), the size
 * budgets and the API reference. Arguments go to vitest (`npm test -- --project fast`). With
 * `--fast` first (`npm run test:fast`) it runs only the projects that run from the sources
 * (`FAST_PROJECTS` of test/projects.ts), in one reused worker pool. Output to a file or a CI log
 * carries no colour codes: the tools colour it in a terminal only (vitest colours whenever TERM is
 * set, hence NO_COLOR).
 */
import { spawnSync } from "node:child_process";
import { FAST_PROJECTS } from "../test/projects.ts";

const plain = !process.stdout.isTTY;
const env = plain ? { ...process.env, NO_COLOR: "1" } : process.env;
const fast = process.argv[2] === "--fast";
// The projects that run from the sources, in one reused worker pool.
const fastProjects = FAST_PROJECTS.flatMap((name) => ["--project", name]);
const vitestArgs = fast ? [...fastProjects, "--pool=threads", "--no-isolate", ...process.argv.slice(3)] : process.argv.slice(2);
const all = [
  ["biome", "ci", ...(plain ? ["--colors=off"] : []), "."],
  ["tsc", "--noEmit"],
  ["tsup"],
  ["vitest", "run", ...vitestArgs],
  ["publint", "--strict"],
  ["attw", "--pack", "."],
  ["size-limit"],
  ["typedoc"],
];
const steps = fast ? all.filter(([command]) => command === "vitest") : all;

for (const [command, ...args] of steps) {
  process.stdout.write(`\n> ${[command, ...args].join(" ")}\n`);
  const { status, error } = spawnSync(command, args, { stdio: "inherit", env });
  if (error !== undefined) throw error;
  if (status !== 0) process.exit(status ?? 1);
}
