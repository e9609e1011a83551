/**
 * Runs once before the container test: installs podman, runc and mmdebstrap when missing, builds
 * the stand-in of the Dockerfile's base image (base.ts), then the project (dist/) and the image
 * itself with `npm run image` under the build lock (no other build cleans dist/ in between), as
 * docs/server.md tells maintainers to, with podman instead of docker. Every failure fails the run.
 */
import type { TestProject } from "vitest/node";
import { baseSpec, ensureBase } from "./support/base.ts";
import { buildImage } from "./support/image.ts";
import { ensureTools } from "./support/tools.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The image `npm run image` built, `prospectkit-mock:<version>`. */
    image: string;
    /** The stand-in base image's tag, exactly the Dockerfile's FROM as podman stores it. */
    base: string;
  }
}

export default function setup(project: TestProject): void {
  const seconds = (from: number) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
  let started = performance.now();
  const installed = ensureTools();
  process.stderr.write(`container: tools ${installed.length > 0 ? `installed ${installed.join(", ")}` : "present"} (${seconds(started)})\n`);

  started = performance.now();
  const spec = baseSpec();
  const outcome = ensureBase(spec);
  process.stderr.write(`container: base ${spec.tag} (Debian ${spec.suite}, Node ${spec.nodeVersion}) ${outcome} (${seconds(started)})\n`);

  started = performance.now();
  const image = buildImage();
  process.stderr.write(`container: build and image ${image} (${seconds(started)})\n`);
  project.provide("image", image);
  project.provide("base", spec.tag);
}
