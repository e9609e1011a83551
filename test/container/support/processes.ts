/** A container's process 1 as the host sees it (a container's processes are host processes). */
import { readFileSync } from "node:fs";
import { podman } from "./podman.ts";

/** The host's process ID of a container's process 1. */
export function hostPid(container: string): number {
  return Number(podman(["inspect", "--format", "{{.State.Pid}}", container]));
}

/** The real user ID of a host process (the container's processes are host processes). */
export function uidOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^Uid:\s+(\d+)/m.exec(status)![1]);
}
