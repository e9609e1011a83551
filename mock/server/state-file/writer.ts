/**
 * Writing a state file: every change is appended to its journal as one line of JSON, so a write
 * costs the size of what changed, never that of the state. The changes of one request go out in
 * one `write`, before its answer does (a crash or `kill -9` after an answer never loses what it
 * acknowledged); the data reaches the disk within a second (`fdatasync`). Compaction rewrites
 * the file as its format line and the whole state, into a new file that replaces the old one by
 * `rename` only once it is complete and synced: at start (unless the file holds just the state
 * already: a clean stop compacted it), at shutdown, and when the journal has
 * grown past twice the state (so its cost, spread over the writes that grew it, stays constant).
 * Both files are created with permissions 0600: the state holds API keys and signing secrets.
 * @module
 */
import { chmodSync, closeSync, fdatasync, fstatSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { StateChange } from "../../state/journal.js";
import type { SavedState } from "../../state/saved-state.js";
import { FORMAT_LINE } from "./read.js";

/** How often written changes are synced to the disk, at most. */
export const SYNC_EVERY_MS = 1_000;

/** The journal is compacted once it is this many times the size of the state (plus {@link COMPACT_SLACK_BYTES}). */
const COMPACT_FACTOR = 2;
const COMPACT_SLACK_BYTES = 4 * 1024 * 1024;

/** Writes all of `bytes` at the file's end. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}

/** Syncs a directory, so a rename in it is on the disk (not possible on every platform: then skipped). */
function syncDirectory(path: string): void {
  try {
    const fd = openSync(dirname(path), "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows cannot open a directory: the rename is still atomic there.
  }
}

/** A state file's writer: append changes, flush them, compact, close. */
export interface StateWriter {
  /** Queues one change; it is written at the end of the current task, or by {@link StateWriter.flush}. */
  append(change: StateChange): void;
  /** Writes every queued change now. */
  flush(): void;
  /** Rewrites the file as the whole state, atomically. */
  compact(): void;
  /** Flushes, compacts and closes the file. */
  close(): void;
}

/**
 * Opens a state file for writing; the file then holds exactly `save()`.
 * @param path - the file
 * @param save - the whole state now
 * @param onError - told of a write that failed (the server keeps answering; the file lags behind)
 * @param compacted - whether the file already holds exactly `save()`, alone (then it is only made
 *   0600 and opened for appending: a start does not rewrite a large state it has just read)
 */
export function openStateWriter(path: string, save: () => SavedState, onError: (error: Error) => void, compacted = false): StateWriter {
  let fd: number | null = null;
  let queued: string[] = [];
  let scheduled = false;
  let unsynced = false;
  let stateBytes = 0;
  let journalBytes = 0;
  let failed = false;

  function compact(): void {
    flush();
    const temporary = `${path}.tmp`;
    const bytes = Buffer.from(`${FORMAT_LINE}\n${JSON.stringify(save())}\n`);
    rmSync(temporary, { force: true }); // a leftover of a crash in the middle of a compaction
    const out = openSync(temporary, "wx", 0o600);
    try {
      writeAll(out, bytes);
      fsyncSync(out);
    } finally {
      closeSync(out);
    }
    chmodSync(temporary, 0o600); // whatever the umask
    renameSync(temporary, path);
    syncDirectory(path);
    if (fd !== null) closeSync(fd);
    fd = openSync(path, "a", 0o600);
    stateBytes = bytes.length;
    journalBytes = 0;
  }

  function flush(): void {
    scheduled = false;
    if (queued.length === 0 || fd === null) return;
    const bytes = Buffer.from(`${queued.join("\n")}\n`);
    queued = [];
    try {
      writeAll(fd, bytes);
    } catch (error) {
      if (!failed) onError(error as Error);
      failed = true;
      return;
    }
    unsynced = true;
    journalBytes += bytes.length;
    if (journalBytes > COMPACT_FACTOR * stateBytes + COMPACT_SLACK_BYTES) compact();
  }

  const timer = setInterval(() => {
    if (!unsynced || fd === null) return;
    unsynced = false;
    fdatasync(fd, (error) => error && !failed && onError(error));
  }, SYNC_EVERY_MS);
  timer.unref();

  if (compacted) {
    chmodSync(path, 0o600);
    fd = openSync(path, "a", 0o600);
    stateBytes = fstatSync(fd).size;
  } else compact();
  return {
    append(change) {
      queued.push(JSON.stringify(change));
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(flush);
    },
    flush,
    compact,
    close() {
      clearInterval(timer);
      compact();
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
