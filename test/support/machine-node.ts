/**
 * The machine's own Node and npm (20 here and in CI), as a user's project runs them: the PATH
 * without the project's node_modules/.bin, where npm puts the project's Node 24 first.
 */
import { execFileSync } from "node:child_process";
import { delimiter } from "node:path";

/** PATH without any node_modules/.bin, so `node`, `npm` and `npx` are the machine's own. */
export const machinePath = (process.env["PATH"] ?? "")
  .split(delimiter)
  .filter((dir) => !dir.includes("node_modules"))
  .join(delimiter);

/** The environment with {@link machinePath}. */
export const machineEnv: NodeJS.ProcessEnv = { ...process.env, PATH: machinePath };

/** The machine's Node major version (`node --version` on {@link machinePath}). */
export function machineNodeMajor(): number {
  const version = execFileSync("node", ["--version"], { env: machineEnv, encoding: "utf8" }).trim();
  return Number(/^v(\d+)\./.exec(version)?.[1]);
}
