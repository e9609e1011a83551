/**
 * Writing a state file. Every change is appended as one line (one record), so a write costs the
 * size of what changed, never that of the state; the changes queued are written in one append
 * before the answer that acknowledges them leaves, and reach the disk within a second
 * (`fdatasync`). The writer knows the offset just past the last complete line: an append that
 * fails part-way is cut back to it at once, or, if that fails too, before anything else is
 * written (so a fragment is never followed by more lines). Compaction writes the state's records
 * into `FILE.tmp`, syncs it and renames it over the file: at start (when due), at a clean stop,
 * and when the journal has outgrown the file it was appended to ({@link COMPACT_WHILE_RUNNING};
 * then instead of appending: the new file holds the queued changes too). A compaction that fails removes its temporary file and leaves the file as
 * it was, its journal whole. Both files are created with permissions 0600: the state holds API
 * keys and signing secrets.
 * @module
 */
import { dirname } from "node:path";
import type { StateChange } from "../../state/journal.js";
import { FORMAT_LINE } from "../../state/persist/decode.js";
import { stateRecords } from "../../state/persist/records.js";
import type { SavedState } from "../../state/persist/saved-state.js";
import { describeFsError, stateFs } from "./fs.js";

/** How often written changes are synced to the disk, at most. */
export const SYNC_EVERY_MS = 1_000;

/**
 * While the server runs, the file is compacted once the lines appended since the last rewrite (or
 * the start) pass `factor` times the file's size then, plus `slackBytes` (docs/server.md says so).
 */
export const COMPACT_WHILE_RUNNING = { factor: 2, slackBytes: 4 * 1024 * 1024 } as const;
const COMPACT_FACTOR = COMPACT_WHILE_RUNNING.factor;
const COMPACT_SLACK_BYTES = COMPACT_WHILE_RUNNING.slackBytes;

/** How much text a compaction gathers before it writes it out. */
const CHUNK_CHARS = 64 * 1024;

/** What a writer that failed writes (and cuts off again) to learn whether the file can be written again. */
const PROBE = Buffer.alloc(64 * 1024, 0x20);

/** Writes all of `bytes` at the file's end. */
function writeAll(fd: number, bytes: Uint8Array): void {
  for (let done = 0; done < bytes.length; ) done += stateFs.writeSync(fd, bytes, done, bytes.length - done);
}

/** Syncs a directory, so a rename in it is on the disk (not possible on every platform: then skipped). */
function syncDirectory(path: string): void {
  try {
    const fd = stateFs.openSync(dirname(path), "r");
    try {
      stateFs.fsyncSync(fd);
    } finally {
      stateFs.closeSync(fd);
    }
  } catch {
    // Windows cannot open a directory: the rename is still atomic there.
  }
}

/** What a writer tells its owner. */
export interface WriterEvents {
  /** An append failed: the changes queued since the last write are lost (the owner undoes them in memory). */
  lost(error: unknown): void;
  /** A write worked again after one failed. */
  resumed(): void;
  /** Something failed that loses nothing (a compaction, a sync): one line. */
  notice(message: string): void;
}

/** Where a file stands when its writer opens it (what `readStateFile` found). */
export interface OpenedAt {
  /** No file yet (or an empty one): the writer creates it. */
  readonly fresh: boolean;
  readonly goodBytes: number;
  readonly tornBytes: number;
  readonly compactNow: boolean;
}

/** A state file's writer. */
export interface StateWriter {
  /** Queues one change (written at the end of the current task, or by {@link StateWriter.flush}); returns its sequence number. */
  append(change: StateChange): number;
  /** Writes every queued change now; false when they could not be written (they are lost: {@link WriterEvents.lost} was told). */
  flush(): boolean;
  /** The sequence number of the last change on the disk (every earlier one is there too, or was lost). */
  readonly durable: number;
  /** Whether the last write failed (and none has worked since). */
  readonly failing: boolean;
  /** The byte offset just past the file's last complete line: what is whole on the disk. */
  readonly goodBytes: number;
  /** After a failure: whether the file can be written again (a write, cut off at once); true when nothing failed. */
  probe(): boolean;
  /** Writes what is queued, compacts the file, closes it. Never throws: what fails is told, and the file stays whole. */
  close(): void;
}

/**
 * Opens a state file for writing.
 * @param target - the file (resolved: never a link)
 * @param save - the whole state now
 * @param at - where the file stands
 * @param events - what the writer tells its owner
 * @throws the file system's error when a new file cannot be created, or an existing one opened for appending
 */
export function openStateWriter(target: string, save: () => SavedState, at: OpenedAt, events: WriterEvents): StateWriter {
  let fd: number | null = null;
  let queued: string[] = [];
  let scheduled = false;
  let unsynced = false;
  let closed = false;
  let failing = false;
  let seq = 0;
  let durable = 0;
  let goodBytes = at.goodBytes;
  let mustTruncate = at.tornBytes > 0;
  let journalBytes = 0;
  let compactAfter = 0;
  let compactionFailed = false;

  /** Compacts; a failure is told once until a compaction works again. */
  function compact(): boolean {
    const error = rewrite();
    if (error === null) {
      compactionFailed = false;
      return true;
    }
    if (!compactionFailed) events.notice(`cannot compact it (${describeFsError(error)}); it keeps its journal: nothing is lost`);
    compactionFailed = true;
    compactAfter = journalBytes + COMPACT_SLACK_BYTES; // not again at every write
    return false;
  }

  /** Rewrites the file as the whole state (queued changes included); the error when it could not (the file is then as it was). */
  function rewrite(): unknown {
    const temporary = `${target}.tmp`;
    let out: number | null = null;
    let size = 0;
    try {
      stateFs.rmSync(temporary, { force: true }); // a leftover of a crash in the middle of a compaction
      out = stateFs.openSync(temporary, "wx", 0o600);
      let chunk = `${FORMAT_LINE}\n`;
      const emit = () => {
        const bytes = Buffer.from(chunk);
        writeAll(out!, bytes);
        size += bytes.length;
        chunk = "";
      };
      for (const record of stateRecords(save())) {
        chunk += `${JSON.stringify(record)}\n`;
        if (chunk.length >= CHUNK_CHARS) emit();
      }
      emit();
      stateFs.fsyncSync(out);
      stateFs.closeSync(out);
      out = null;
      stateFs.chmodSync(temporary, 0o600); // whatever the umask
      stateFs.renameSync(temporary, target);
    } catch (error) {
      if (out !== null) {
        try {
          stateFs.closeSync(out);
        } catch {
          // closing is all that is left to try
        }
      }
      try {
        stateFs.rmSync(temporary, { force: true });
      } catch {
        // the next compaction removes it first
      }
      return error;
    }
    syncDirectory(target);
    if (fd !== null) {
      try {
        stateFs.closeSync(fd);
      } catch {
        // the old file is gone anyway
      }
    }
    fd = null;
    goodBytes = size;
    mustTruncate = false;
    journalBytes = 0;
    compactAfter = COMPACT_FACTOR * size + COMPACT_SLACK_BYTES;
    durable = seq;
    return null;
  }

  /** Opens the file for appending (once, or again after a compaction) and cuts off what follows its last complete line. */
  function ready(): number {
    fd ??= stateFs.openSync(target, "a", 0o600);
    if (mustTruncate) {
      stateFs.ftruncateSync(fd, goodBytes);
      mustTruncate = false;
    }
    return fd;
  }

  function resumed(): void {
    if (!failing) return;
    failing = false;
    events.resumed();
  }

  /** After a write that failed part-way: marks the file to be cut back, and cuts it back now if it can (if not, before the next write). */
  function cutBack(): void {
    mustTruncate = true;
    try {
      ready();
    } catch {
      // the next write tries again
    }
  }

  function flush(): boolean {
    scheduled = false;
    if (queued.length === 0) return true;
    if (closed) return false;
    const upTo = seq;
    const bytes = Buffer.from(`${queued.join("\n")}\n`);
    queued = [];
    if (journalBytes + bytes.length > compactAfter && compact()) return resumed(), true;
    try {
      writeAll(ready(), bytes);
    } catch (error) {
      cutBack();
      failing = true;
      events.lost(error);
      return false;
    }
    goodBytes += bytes.length;
    journalBytes += bytes.length;
    durable = upTo;
    unsynced = true;
    resumed();
    return true;
  }

  const timer = setInterval(() => {
    if (!unsynced || fd === null) return;
    unsynced = false;
    stateFs.fdatasync(fd, (error) => {
      if (error !== null && error.code !== "EBADF") events.notice(`cannot sync it to the disk (${describeFsError(error)})`);
    });
  }, SYNC_EVERY_MS);
  timer.unref();

  if (at.fresh) {
    const error = rewrite();
    if (error !== null) {
      clearInterval(timer);
      throw error;
    }
  } else {
    stateFs.chmodSync(target, 0o600);
    ready();
    compactAfter = COMPACT_FACTOR * goodBytes + COMPACT_SLACK_BYTES;
    if (at.compactNow) compact();
  }
  return {
    append(change) {
      seq += 1;
      if (closed) return seq;
      queued.push(JSON.stringify(change));
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
      return seq;
    },
    flush,
    get durable() {
      return durable;
    },
    get failing() {
      return failing;
    },
    get goodBytes() {
      return goodBytes;
    },
    probe() {
      if (!failing) return true;
      try {
        const file = ready();
        writeAll(file, PROBE);
        stateFs.ftruncateSync(file, goodBytes);
      } catch {
        cutBack(); // a probe written part-way leaves no padding behind
        return false;
      }
      resumed();
      return true;
    },
    close() {
      if (closed) return;
      clearInterval(timer);
      flush();
      closed = true;
      const error = rewrite();
      if (error !== null) events.notice(`cannot compact it at the stop (${describeFsError(error)}); it keeps its journal: nothing is lost`);
      if (fd === null) return;
      try {
        stateFs.fsyncSync(fd);
        stateFs.closeSync(fd);
      } catch (error) {
        events.notice(`cannot sync it to the disk (${describeFsError(error)})`);
      }
      fd = null;
    },
  };
}
