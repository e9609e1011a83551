/**
 * The stand-in for the Dockerfile's base image, built without a registry by base-image.sh: which
 * name it gets (exactly the FROM line's, fully qualified as a registry would store it), which
 * Debian suite and which Node (package.json's devDependency `node`, the Node the project tests on),
 * and a cache of its root file system in test/container/.cache/ between local runs (CI starts
 * without one and builds it).
 */

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { podman } from "./podman.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const SCRIPT = join(ROOT, "test/container/support/base-image.sh");
const CACHE = join(ROOT, "test/container/.cache");

/** What the stand-in is made of. */
export interface BaseSpec {
  /** The FROM line's image, e.g. `node:24-bookworm-slim`. */
  readonly from: string;
  /** The same, as podman stores it: `docker.io/library/node:24-bookworm-slim`. */
  readonly tag: string;
  readonly suite: string;
  readonly nodeVersion: string;
}

/** The Dockerfile's one FROM image. */
export function dockerfileFrom(dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8")): string {
  const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((match) => match[1]!);
  if (froms.length !== 1) throw new TypeError(`the Dockerfile should have one FROM, not ${froms.length}`);
  return froms[0]!;
}

/** A Docker Hub name as podman stores it: `node:24` is `docker.io/library/node:24`. */
export function qualified(name: string): string {
  const [first] = name.split("/");
  if (name.includes("/") && /[.:]|^localhost$/.test(first!)) return name;
  return `docker.io/${name.includes("/") ? "" : "library/"}${name}`;
}

/** The stand-in for this repository's Dockerfile. */
export function baseSpec(): BaseSpec {
  const from = dockerfileFrom();
  const match = /^(?:docker\.io\/)?(?:library\/)?node:(\d+)-([a-z]+)-slim$/.exec(from);
  if (match === null) throw new TypeError(`the stand-in builds node:<major>-<suite>-slim, not ${from}`);
  const [, major, suite] = match;
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
  const nodeVersion = manifest.devDependencies["node"]!;
  if (nodeVersion.split(".")[0] !== major)
    throw new TypeError(`the Dockerfile's FROM is Node ${major}, the project's Node is ${nodeVersion}: keep them one major`);
  return { from, tag: qualified(from), suite: suite!, nodeVersion };
}

/** The image ID podman has under `tag`, or undefined. */
function imageId(tag: string): string | undefined {
  try {
    return podman(["image", "inspect", "--format", "{{.Id}}", tag]);
  } catch {
    return undefined;
  }
}

/**
 * Makes sure podman holds the stand-in under its tag: reused when it is the one this spec and
 * script made last time, imported from the cached root file system when that exists, else built.
 * @returns how it was obtained
 */
export function ensureBase(spec: BaseSpec = baseSpec()): "reused" | "imported" | "built" {
  const key = createHash("sha256").update(readFileSync(SCRIPT)).update(JSON.stringify(spec)).digest("hex").slice(0, 16);
  const rootfs = join(CACHE, `base-${key}.tar`);
  const idFile = join(CACHE, `base-${key}.id`);
  const known = existsSync(idFile) ? readFileSync(idFile, "utf8").trim() : undefined;
  if (known !== undefined && imageId(spec.tag) === known) return "reused";
  const outcome = existsSync(rootfs) ? "imported" : "built";
  execFileSync("bash", [SCRIPT, spec.tag, spec.suite, spec.nodeVersion, rootfs], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const id = imageId(spec.tag);
  if (id === undefined) throw new TypeError(`base-image.sh left no image tagged ${spec.tag}`);
  writeFileSync(idFile, `${id}\n`);
  return outcome;
}
