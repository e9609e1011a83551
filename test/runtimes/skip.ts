/**
 * The one way to leave a runtime out of the matrix: PROSPECTKIT_SKIP_RUNTIMES, a comma-separated
 * list of runtime ids (for example `bun,deno`), honoured only outside CI. Without it a runtime
 * that cannot be installed or run fails its case; it is never skipped silently.
 */
import { RUNTIME_IDS, type RuntimeId } from "./runtimes.ts";

/** The environment variable that names the runtimes to leave out. */
export const SKIP_VARIABLE = "PROSPECTKIT_SKIP_RUNTIMES";

/**
 * Reads which runtimes to leave out.
 *
 * @param env - the environment to read (the process's by default)
 * @returns the ids to leave out: none in CI (`CI=true`), whatever the variable says
 * @throws TypeError when the variable names a runtime that does not exist
 */
export function skippedRuntimes(env: NodeJS.ProcessEnv = process.env): ReadonlySet<RuntimeId> {
  const names = (env[SKIP_VARIABLE] ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(RUNTIME_IDS as string[]).includes(name));
  if (unknown.length > 0) {
    throw new TypeError(`${SKIP_VARIABLE} names unknown runtimes: ${unknown.join(", ")} (known: ${RUNTIME_IDS.join(", ")})`);
  }
  if (names.length > 0 && env["CI"] === "true") {
    console.warn(`runtimes: ${SKIP_VARIABLE}=${env[SKIP_VARIABLE]} is ignored in CI; every runtime must run`);
    return new Set();
  }
  if (names.length > 0) console.warn(`runtimes: leaving out ${names.join(", ")} because ${SKIP_VARIABLE} says so`);
  return new Set(names as RuntimeId[]);
}
