/**
 * One server per state file: a lock file beside it (`FILE.lock`), created atomically with its
 * content, naming its owner: the process ID, the process's start time (from `/proc/PID/stat`,
 * where there is one) and a random token. A lock is taken over, as stale, when it names:
 * - no process (empty, cut short, edited), or a process that is gone (a crash, `kill -9`);
 * - this very process, unless a server of this process holds it: a lock left by an earlier
 *   process that had the same ID (a restarted container, where the server is PID 1 again);
 * - a running process that is not the one that wrote it (its start time differs: the ID was
 *   reused), or, for a lock of an older prospectkit without a start time, one whose command line
 *   does not name prospectkit. Where there is no `/proc` (macOS, Windows) the owner refreshes the
 *   lock's modification time every few seconds, and a lock left unrefreshed for 30 s is stale.
 * A lock that is taken over says which of these it was (a notice on stderr, or `onStateFileNotice`).
 * @module
 */
import { randomBytes } from "node:crypto";
import { StateFileError } from "./error.js";
import { stateFs } from "./fs.js";

/** How often an owner refreshes its lock's modification time. */
const REFRESH_MS = 2_000;

/** A lock naming a running process, unrefreshed for this long, is stale (only where `/proc` cannot tell). */
const STALE_AFTER_MS = 30_000;

/** The locks the servers of this process hold, by lock path: their tokens. */
const heldHere = new Map<string, string>();

/** What a lock file says of its owner. */
interface LockOwner {
  readonly pid: number;
  /** The owner's start time, in clock ticks since boot (`/proc/PID/stat`, field 22); null where unknown. */
  readonly started: string | null;
  readonly token: string | null;
}

/** Whether a process with this ID is running (one we may not signal is running too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A process's start time from `/proc/PID/stat` (the 22nd field, after the command's name in parentheses), or null. */
function processStart(pid: number | "self"): string | null {
  try {
    const stat = stateFs.readFileSync(`/proc/${pid}/stat`, "utf8") as string;
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether a process's command line names prospectkit (`/proc/PID/cmdline`), or null where it cannot be read. */
function namesProspectkit(pid: number): boolean | null {
  try {
    return (stateFs.readFileSync(`/proc/${pid}/cmdline`, "utf8") as string).includes("prospectkit");
  } catch {
    return null;
  }
}

/** The owner a lock file names, and when it was last refreshed; the owner is null for a lock that names none. */
function ownerOf(lockPath: string): { owner: LockOwner | null; text: string; refreshedMs: number } | null {
  let text: string;
  let refreshedMs: number;
  try {
    text = stateFs.readFileSync(lockPath, "utf8") as string;
    refreshedMs = stateFs.lstatSync(lockPath).mtimeMs;
  } catch {
    return null; // gone meanwhile
  }
  if (/^\d{1,10}\s*$/.test(text)) return { owner: { pid: Number(text.trim()), started: null, token: null }, text, refreshedMs };
  try {
    const { pid, started, token } = JSON.parse(text) as Record<string, unknown>;
    if (Number.isInteger(pid) && (pid as number) > 0 && (started === null || typeof started === "string") && typeof token === "string") {
      return { owner: { pid: pid as number, started, token }, text, refreshedMs };
    }
  } catch {
    // not JSON: names no process
  }
  return { owner: null, text, refreshedMs };
}

/** Whether a lock's owner still holds it; for a stale lock, what it named (the notice says it). */
function judge(lockPath: string, owner: LockOwner | null, refreshedMs: number): { live: true } | { live: false; named: string } {
  if (owner === null) return { live: false, named: "no process (it is empty, cut short or edited)" };
  if (owner.pid === process.pid) {
    if (owner.token !== null && heldHere.get(lockPath) === owner.token) return { live: true };
    return { live: false, named: "this very process (a lock left by an earlier process with its ID, as in a restarted container)" };
  }
  if (!alive(owner.pid)) return { live: false, named: `process ${owner.pid}, which is gone (it crashed or was killed)` };
  const notMock = `process ${owner.pid}, which is running but is not a prospectkit-mock (its ID was reused)`;
  const started = processStart(owner.pid);
  if (started !== null && owner.started !== null) return started === owner.started ? { live: true } : { live: false, named: notMock };
  const named = started === null ? null : namesProspectkit(owner.pid);
  if (named !== null) return named ? { live: true } : { live: false, named: notMock };
  return Date.now() - refreshedMs < STALE_AFTER_MS ? { live: true } : { live: false, named: `${notMock.slice(0, -1)}; its lock was not refreshed)` };
}

/** Creates `lockPath` holding `text`, atomically (a hard link of a complete file); false when it exists. */
function create(lockPath: string, text: string, token: string): boolean {
  const draft = `${lockPath}.${token}`;
  const fd = stateFs.openSync(draft, "wx", 0o600);
  try {
    const bytes = Buffer.from(text);
    for (let done = 0; done < bytes.length; ) done += stateFs.writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    stateFs.closeSync(fd);
  }
  try {
    stateFs.linkSync(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    stateFs.rmSync(draft, { force: true });
  }
}

/**
 * Takes the state file's lock.
 * @param path - the state file, as given (named in errors)
 * @param target - the file it resolves to: the lock is `target.lock`
 * @param onNotice - told when a stale lock is taken over, and what it named
 * @returns the function that releases it (only while the lock is still this server's)
 * @throws {StateFileError} when a running prospectkit-mock holds it, or the lock cannot be created
 */
export function acquireLock(path: string, target: string, onNotice: (message: string) => void): () => void {
  const lockPath = `${target}.lock`;
  const token = randomBytes(16).toString("hex");
  const text = `${JSON.stringify({ pid: process.pid, started: processStart("self"), token })}\n`;
  for (let attempt = 0; ; attempt++) {
    let created: boolean;
    try {
      created = create(lockPath, text, token);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new StateFileError(path, `cannot create its lock ${lockPath} (${code ?? "unknown error"})`);
    }
    if (created) break;
    const found = ownerOf(lockPath);
    if (found === null) continue; // released meanwhile
    const verdict = judge(lockPath, found.owner, found.refreshedMs);
    if (verdict.live) {
      throw new StateFileError(path, `in use by another prospectkit-mock (process ${found.owner!.pid}); stop it first, or choose another file`);
    }
    if (attempt > 2) throw new StateFileError(path, `its lock ${lockPath} could not be taken over`);
    // Removed only if it still says what was judged (another server may have taken it over meanwhile).
    if (ownerOf(lockPath)?.text !== found.text) continue;
    try {
      stateFs.unlinkSync(lockPath);
    } catch {
      // Another process took it over first: the next attempt sees its lock.
    }
    onNotice(`state file ${path}: its lock named ${verdict.named}: taken over`);
  }
  heldHere.set(lockPath, token);
  const refresh = setInterval(() => {
    const now = new Date();
    try {
      stateFs.utimesSync(lockPath, now, now);
    } catch {
      // Gone or not writable: the next start judges it by its process.
    }
  }, REFRESH_MS);
  refresh.unref();
  return () => {
    clearInterval(refresh);
    if (heldHere.get(lockPath) === token) heldHere.delete(lockPath);
    const found = ownerOf(lockPath);
    if (found?.owner?.token !== token) return;
    try {
      stateFs.unlinkSync(lockPath);
    } catch {
      // Already gone: nothing to release.
    }
  };
}
