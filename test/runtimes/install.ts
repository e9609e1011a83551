/**
 * Installs every runtime of the matrix into test/runtimes/.cache (git-ignored) from npm, or
 * Chromium from Debian's packages, and proves each binary runs by asking its `--version`.
 * A runtime already in the cache is only checked again, so a warm run costs milliseconds.
 *
 * Run it alone to warm the cache: `npm exec -- node test/runtimes/install.ts [ids...]`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type AptRuntime, type NpmRuntime, RUNTIME_IDS, RUNTIMES, type RuntimeId } from "./runtimes.ts";
import { skippedRuntimes } from "./skip.ts";

/** Where the runtimes are cached, one folder per runtime id. */
export const CACHE_DIR = resolve(import.meta.dirname, ".cache");

/** The outcome of installing one runtime: its binary, or why there is none. */
export type Installed =
  | { readonly id: RuntimeId; readonly ok: true; readonly bin: string; readonly version: string; readonly cached: boolean; readonly seconds: number }
  | { readonly id: RuntimeId; readonly ok: false; readonly error: string; readonly seconds: number };

function run(file: string, args: string[], cwd?: string): string {
  return execFileSync(file, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    timeout: 15 * 60_000,
  }).trim();
}

function checkVersion(bin: string, expected: RegExp): string {
  const version = run(bin, ["--version"]).split("\n")[0] ?? "";
  if (!expected.test(version)) throw new TypeError(`${bin} --version printed "${version}", expected ${expected}`);
  return version;
}

/** Finds the binary in node_modules, picking the one platform package npm installed. */
function locateBinary(modules: string, runtime: NpmRuntime): string {
  if (!runtime.binary.includes("{platform}")) return join(modules, runtime.binary);
  const wrapper = runtime.spec.slice(0, runtime.spec.lastIndexOf("@"));
  const manifest = JSON.parse(readFileSync(join(modules, wrapper, "package.json"), "utf8")) as {
    optionalDependencies?: Record<string, string>;
  };
  const candidates = Object.keys(manifest.optionalDependencies ?? {});
  const installed = candidates.filter((name) => existsSync(join(modules, name, "package.json")));
  if (installed.length !== 1) {
    throw new TypeError(
      `${runtime.spec}: npm installed ${installed.length} of its platform packages for ${process.platform}-${process.arch} ` +
        `(${installed.join(", ") || "none"}; the registry offers ${candidates.join(", ")})`,
    );
  }
  return join(modules, runtime.binary.replace("{platform}", installed[0]!));
}

function installNpm(id: RuntimeId, runtime: NpmRuntime): { bin: string; version: string; cached: boolean } {
  const dir = join(CACHE_DIR, id);
  const stamp = join(dir, "ready.json");
  if (existsSync(stamp)) {
    const ready = JSON.parse(readFileSync(stamp, "utf8")) as { spec: string };
    if (ready.spec === runtime.spec) {
      const bin = locateBinary(join(dir, "node_modules"), runtime);
      return { bin, version: checkVersion(bin, runtime.version), cached: true };
    }
  }
  // Install beside the final folder and rename, so an interrupted install never looks ready.
  const staging = `${dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    writeFileSync(join(staging, "package.json"), JSON.stringify({ name: `runtime-${id}`, private: true }));
    run("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", runtime.spec], staging);
    checkVersion(locateBinary(join(staging, "node_modules"), runtime), runtime.version);
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  const bin = locateBinary(join(dir, "node_modules"), runtime);
  const version = checkVersion(bin, runtime.version);
  writeFileSync(stamp, JSON.stringify({ spec: runtime.spec, version }, null, 2));
  return { bin, version, cached: false };
}

function installApt(runtime: AptRuntime): { bin: string; version: string; cached: boolean } {
  const cached = existsSync(runtime.binary);
  if (!cached) {
    if (process.getuid?.() !== 0) {
      throw new TypeError(`${runtime.binary} is missing; install it as root: apt-get install -y ${runtime.aptPackage}`);
    }
    const install = ["install", "-y", "-q", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=600", runtime.aptPackage];
    try {
      run("apt-get", install);
    } catch {
      // A fresh machine may have no package lists yet (or stale ones): fetch them once and retry.
      run("apt-get", ["update", "-q", "-o", "DPkg::Lock::Timeout=600"]);
      run("apt-get", install);
    }
  }
  return { bin: runtime.binary, version: checkVersion(runtime.binary, runtime.version), cached };
}

/**
 * Installs one runtime (or checks the cached one) and proves its binary runs.
 *
 * @param id - the runtime to install
 * @returns the binary and the version it printed, or the error that stopped it; never throws
 */
export function installRuntime(id: RuntimeId): Installed {
  const started = performance.now();
  const seconds = () => Math.round(performance.now() - started) / 1000;
  try {
    const runtime = RUNTIMES[id];
    const found = runtime.kind === "npm" ? installNpm(id, runtime) : installApt(runtime);
    return { id, ok: true, ...found, seconds: seconds() };
  } catch (error) {
    // execFileSync's message already carries the command's stderr.
    const detail = error instanceof Error ? error.message : String(error);
    return { id, ok: false, error: `${id} could not be installed: ${detail}`, seconds: seconds() };
  }
}

/**
 * Installs the given runtimes one after the other (npm and apt each like to run alone).
 *
 * @param ids - the runtimes to install (all but the skipped ones by default)
 * @returns one outcome per runtime, in order
 */
export function installRuntimes(ids: readonly RuntimeId[] = RUNTIME_IDS.filter((id) => !skippedRuntimes().has(id))): Installed[] {
  return ids.map((id) => {
    const result = installRuntime(id);
    const line = result.ok ? `${result.cached ? "cached   " : "installed"} ${result.version} (${result.seconds} s)` : `FAILED    ${result.error}`;
    process.stderr.write(`runtimes: ${id.padEnd(8)} ${line}\n`);
    return result;
  });
}

if (import.meta.main) {
  const ids = process.argv.slice(2);
  const unknown = ids.filter((id) => !(RUNTIME_IDS as string[]).includes(id));
  if (unknown.length > 0) throw new TypeError(`unknown runtimes: ${unknown.join(", ")} (known: ${RUNTIME_IDS.join(", ")})`);
  const results = ids.length > 0 ? installRuntimes(ids as RuntimeId[]) : installRuntimes();
  process.exitCode = results.every((result) => result.ok) ? 0 : 1;
}

/**
 * Picks a runtime's binary from the install outcomes, so that a case of a runtime that could not
 * be installed fails with the install's own error.
 *
 * @param results - the outcomes of {@link installRuntimes}
 * @param id - the runtime a case needs
 * @returns its binary and the version it printed
 * @throws TypeError with the install error when the runtime is not there
 */
export function binaryOf(results: readonly Installed[], id: RuntimeId): Extract<Installed, { ok: true }> {
  const found = results.find((result) => result.id === id);
  if (found === undefined) throw new TypeError(`${id} was not installed (left out of this run?)`);
  if (!found.ok) throw new TypeError(found.error);
  return found;
}
