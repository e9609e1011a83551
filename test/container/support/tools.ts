/**
 * The tools the container test runs: podman with runc (Debian's packages) and mmdebstrap. A
 * missing one is installed with apt-get when running as root (as CI does), else the run fails
 * naming the command to install it: the container test never skips.
 */
import { execFileSync, spawnSync } from "node:child_process";

/** Each command the test needs, and the Debian package that brings it. */
export const TOOLS = { podman: "podman", runc: "runc", mmdebstrap: "mmdebstrap" } as const;

const present = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;

/**
 * Installs what is missing and proves podman runs a container runtime.
 * @returns the packages installed (none when all were there)
 * @throws TypeError when a tool is missing and cannot be installed, or podman cannot run
 */
export function ensureTools(): string[] {
  const missing = Object.entries(TOOLS)
    .filter(([command]) => !present(command))
    .map(([, pkg]) => pkg);
  if (missing.length > 0) {
    if (process.getuid?.() !== 0) throw new TypeError(`missing ${missing.join(", ")}: install as root with apt-get install -y ${missing.join(" ")}`);
    const install = ["install", "-y", "-q", "-o", "DPkg::Lock::Timeout=600", ...missing];
    const run = (args: string[]) =>
      execFileSync("apt-get", args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    try {
      run(install);
    } catch {
      // A fresh machine may have no package lists yet (or stale ones): fetch them once and retry.
      run(["update", "-q", "-o", "DPkg::Lock::Timeout=600"]);
      run(install);
    }
  }
  const info = spawnSync("podman", ["--runtime", "runc", "--cgroup-manager=cgroupfs", "info", "--format", "{{.Host.OCIRuntime.Name}}"], {
    encoding: "utf8",
  });
  if (info.status !== 0) throw new TypeError(`podman cannot run here: ${info.stderr}`);
  return missing;
}
