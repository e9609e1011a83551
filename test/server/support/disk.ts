/**
 * A disk that fills up, through the state file's fs seam (`stateFs`): from a chosen site on,
 * every write to one state file (and its temporary file and lock) fails with `ENOSPC` (the first
 * one may be torn: half of it written), until the disk is freed. Other files are not on it, so a
 * copy of the file can be started meanwhile, as a crash would leave it. The sites are where a server writes its state file: an
 * append to the journal, or a compaction (the moment it opens its temporary file).
 */
import { stateFs } from "../../../mock/server/state-file/fs.js";

/** Where the disk fills up. */
export type FullAt = "append" | "compaction";

/** How the disk fails. */
export interface FullOptions {
  /** The first failing write writes half of its bytes (a torn append) before the disk is full. */
  readonly torn?: boolean;
  /** While full, cutting the file back fails too (`EIO`): the fragment stays until a write works again. */
  readonly cutBackFails?: boolean;
}

const original = { ...stateFs };

const failure = (code: string) => Object.assign(new Error(`${code}: simulated by the test`), { code });

/** Installs the disk over the seam; `restore` puts the real file system back. */
export function createDisk() {
  /** The files on the disk (those of the state file named by {@link on}). */
  let scope: string | null = null;
  const onDisk = new Set<number>();
  const appending = new Set<number>();
  let armed: { at: FullAt; options: FullOptions } | null = null;
  let full = false;
  let torn = false;
  let cutBackFails = false;
  const fill = (options: FullOptions) => {
    full = true;
    torn = options.torn === true;
  };
  stateFs.openSync = ((path, flags, mode) => {
    if (armed?.at === "compaction" && scope !== null && String(path) === `${scope}.tmp`) {
      fill(armed.options);
      armed = null;
    }
    const fd = original.openSync(path, flags, mode);
    if (scope !== null && String(path).startsWith(scope)) onDisk.add(fd);
    if (flags === "a") appending.add(fd);
    return fd;
  }) as typeof stateFs.openSync;
  stateFs.closeSync = (fd) => {
    appending.delete(fd);
    onDisk.delete(fd);
    original.closeSync(fd);
  };
  stateFs.writeSync = (fd, buffer, offset, length) => {
    if (!onDisk.has(fd)) return original.writeSync(fd, buffer, offset, length);
    if (armed?.at === "append" && appending.has(fd)) {
      fill(armed.options);
      armed = null;
    }
    if (!full) return original.writeSync(fd, buffer, offset, length);
    if (torn && length > 1) {
      torn = false;
      return original.writeSync(fd, buffer, offset, Math.floor(length / 2));
    }
    throw failure("ENOSPC");
  };
  stateFs.ftruncateSync = (fd, length) => {
    if (full && cutBackFails && onDisk.has(fd)) throw failure("EIO");
    original.ftruncateSync(fd, length);
  };
  return {
    /** Puts a state file (and its temporary file and lock) on the disk: call before its server starts. */
    on(path: string) {
      scope = path;
    },
    /** The disk fills up at the next write of `at`. */
    fillAt(at: FullAt, options: FullOptions = {}) {
      armed = { at, options };
      cutBackFails = options.cutBackFails === true;
    },
    /** Space returns. */
    free() {
      full = false;
      armed = null;
    },
    get full() {
      return full;
    },
    /** The real file system again. */
    restore() {
      Object.assign(stateFs, original);
    },
  };
}
