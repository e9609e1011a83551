/**
 * Finishing touches for a throw-away consumer project (one `installIntoEmptyProject` made): an ES
 * module package, and the repository's own copies of tools the project is meant to have as
 * devDependencies (vite, typescript, vitest, type packages), linked in rather than installed again.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Marks the project `"type": "module"` and links each named package from the repository's
 * node_modules, unless the install already brought it (msw brings some `@types` itself).
 *
 * @param dir - the project
 * @param packages - package names, e.g. `vite`, `@types/node`
 */
export function finishConsumerProject(dir: string, packages: readonly string[]): void {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(dir, "package.json"), JSON.stringify({ ...manifest, type: "module" }, null, 2));
  for (const name of packages) {
    const target = join(dir, "node_modules", name);
    if (existsSync(target)) continue;
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(ROOT, "node_modules", name), target, "dir");
  }
}
