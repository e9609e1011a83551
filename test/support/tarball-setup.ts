/**
 * The packed tarball, once per run: a global setup shared by the projects that install the package
 * (package, docs, browser; test/projects.ts). The first of them to start packs the built package
 * as it is published (test/package/pack.ts); the others find it packed (the setups all run in
 * vitest's main process) and hand the same path on; the last to tear down removes it. A test reads
 * it with `inject("tarball")`; nothing writes to it.
 */
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import type { TestProject } from "vitest/node";
import { packTarball } from "../package/pack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The packed tarball every consumer project installs. */
    tarball: string;
  }
}

/** Where the tarball is kept between the projects' setups (each project loads this module anew): its path and how many use it. */
const PACKED = Symbol.for("prospectkit.test.tarball");

interface Packed {
  readonly path: string;
  users: number;
}

/**
 * Packs the package, once for every project of the run, and provides the tarball's path.
 * @param project - the project whose tests get the path through `inject("tarball")`
 * @returns the teardown
 */
export default function setup(project: TestProject): () => void {
  const shared = globalThis as { [PACKED]?: Packed };
  const packed = (shared[PACKED] ??= { path: packTarball(), users: 0 });
  packed.users += 1;
  project.provide("tarball", packed.path);
  return () => {
    packed.users -= 1;
    if (packed.users > 0) return;
    delete shared[PACKED];
    rmSync(dirname(packed.path), { recursive: true, force: true });
  };
}
