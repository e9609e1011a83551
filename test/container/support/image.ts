/**
 * The image as the container test and the benchmark build it: the project (dist/), then
 * `npm run image` (the command docs/server.md gives maintainers) with podman instead of docker,
 * under the build lock so that no other build cleans dist/ in between.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PODMAN } from "./podman.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

/** What `npm run image` passes to `podman build`: no registry, and the docker format (podman's OCI format drops HEALTHCHECK). */
export const BUILD_FLAGS = ["--pull=never", "--format", "docker"] as const;

/** The tag `npm run image` gives the image of this version. */
export function imageTag(): string {
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  return `prospectkit-mock:${version}`;
}

/**
 * Builds dist/ and the image (its base must be in podman's storage: base.ts).
 * @returns the image's tag
 */
export function buildImage(): string {
  const script = 'npm run build --silent >/dev/null && npm run --silent image -- "$@" >&2';
  execFileSync("flock", ["/tmp/pk-build.lock", "sh", "-c", script, "sh", ...PODMAN, "--", ...BUILD_FLAGS], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  return imageTag();
}
