/**
 * One server per state file: a lock file beside it (`FILE.lock`) holding the owner's process ID,
 * created exclusively. A lock whose process is gone (a crash, `kill -9`) is taken over, so a
 * crashed server never leaves the file locked forever. So is a lock naming this very process that
 * this process does not hold: it was left by an earlier process with the same ID, as in a
 * container, where the server is process 1 on every start.
 * @module
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { StateFileError } from "./error.js";

/** The locks this process holds (absolute paths): a lock naming this process's ID is in use only if it is one of them. */
const held = new Set<string>();

/** Whether a process with this ID is running (one we may not signal is running too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The process ID a lock file names, or null for one that names none (empty, half-written, edited). */
function ownerOf(lockPath: string): number | null {
  try {
    const text = readFileSync(lockPath, "utf8").trim();
    return /^\d{1,10}$/.test(text) ? Number(text) : null;
  } catch {
    return null;
  }
}

/**
 * Takes the state file's lock.
 * @param path - the state file, as given (named in errors)
 * @returns the function that releases it (only while the lock is still this process's)
 * @throws {StateFileError} when a running process holds it, or the lock cannot be created
 */
export function acquireLock(path: string): () => void {
  const lockPath = `${path}.lock`;
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockPath, "wx", 0o600);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw new StateFileError(path, `cannot create its lock ${lockPath} (${code ?? "unknown error"})`);
      const owner = ownerOf(lockPath);
      const running = owner === process.pid ? held.has(resolve(lockPath)) : owner !== null && alive(owner);
      if (running) {
        throw new StateFileError(path, `in use by another prospectkit-mock (process ${owner}); stop it first, or choose another file`);
      }
      if (attempt > 0) throw new StateFileError(path, `its lock ${lockPath} could not be taken over`);
      try {
        unlinkSync(lockPath); // its owner is gone: the lock is stale
      } catch {
        // Another process took it over first: the next attempt sees its lock.
      }
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    held.add(resolve(lockPath));
    return () => {
      if (!held.delete(resolve(lockPath)) || ownerOf(lockPath) !== process.pid) return;
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone: nothing to release.
      }
    };
  }
}
