/**
 * Writing a state file: every change is appended to its journal as one line of JSON, so a write
 * costs the size of what changed, never that of the state. The changes of one request go out in
 * one `write`, before its answer does (a crash or `kill -9` after an answer never loses what it
 * acknowledged); the data reaches the disk within a second (`fdatasync`). Compaction rewrites
 * the file as its format line and the whole state, into a new file that replaces the old one by
 * `rename` only once it is complete and synced: at start (unless the file holds just the state
 * already: a clean stop compacted it), at shutdown, and when the journal has
 * grown past twice the state (so its cost, spread over the writes that grew it, stays constant).
 * Compaction writes the state in 64 KiB chunks, so it never holds the whole text (or its bytes) at
 * once. Both files are created with permissions 0600: the state holds API keys and signing secrets.
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

/** Writes all of `text` at the file's end. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
}

/** How much JSON text a compaction gathers before it writes it out. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The JSON text of `value`, exactly as `JSON.stringify(value)` writes it, in pieces: arrays and
 * objects are opened and walked down to `depth` levels, below which each value is one piece. A
 * state of any size is so written without ever holding all of its text (or its bytes) at once.
 */
function* jsonPieces(value: unknown, depth: number): Generator<string> {
  if (depth === 0 || value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") {
    yield JSON.stringify(value) ?? "null";
    return;
  }
  if (Array.isArray(value)) {
    yield "[";
    for (let index = 0; index < value.length; index++) {
      if (index > 0) yield ",";
      const item: unknown = value[index];
      if (item === undefined || typeof item === "function" || typeof item === "symbol") yield "null";
      else yield* jsonPieces(item, depth - 1);
    }
    yield "]";
    return;
  }
  yield "{";
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(item, depth - 1);
  }
  yield "}";
}

/** Writes `value` as one line of JSON, in chunks; returns how many bytes were written. */
function writeJsonLine(fd: number, value: unknown): number {
  let chunk = "";
  let written = 0;
  const out = (text: string) => {
    writeAll(fd, text);
    written += Buffer.byteLength(text);
  };
  // Depth 4 reaches each record: the state, its tenants (or webhooks), a tenant, a collection's list.
  for (const piece of jsonPieces(value, 4)) {
    chunk += piece;
    if (chunk.length >= CHUNK_CHARS) {
      out(chunk);
      chunk = "";
    }
  }
  out(`${chunk}\n`);
  return written;
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
    rmSync(temporary, { force: true }); // a leftover of a crash in the middle of a compaction
    const out = openSync(temporary, "wx", 0o600);
    let size: number;
    try {
      writeAll(out, `${FORMAT_LINE}\n`);
      size = Buffer.byteLength(`${FORMAT_LINE}\n`) + writeJsonLine(out, save());
      fsyncSync(out);
    } finally {
      closeSync(out);
    }
    chmodSync(temporary, 0o600); // whatever the umask
    renameSync(temporary, path);
    syncDirectory(path);
    if (fd !== null) closeSync(fd);
    fd = openSync(path, "a", 0o600);
    stateBytes = size;
    journalBytes = 0;
  }

  function flush(): void {
    scheduled = false;
    if (queued.length === 0 || fd === null) return;
    const text = `${queued.join("\n")}\n`;
    queued = [];
    try {
      writeAll(fd, text);
    } catch (error) {
      if (!failed) onError(error as Error);
      failed = true;
      return;
    }
    unsynced = true;
    journalBytes += text.length;
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
