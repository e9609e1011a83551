/**
 * Writing a state file. Every change is appended as one line (one record), so a write costs the
 * size of what changed, never that of the state. Writes are group commits: the changes queued
 * during one turn of the event loop are written in one append at its end (`setImmediate`), and
 * every answer that acknowledges one of them waits for that append ({@link StateWriter.written});
 * they reach the disk within a second (`fdatasync`). The writer knows the offset just past the last complete line: an append that
 * fails part-way is cut back to it at once, or, if that fails too, before anything else is
 * written (so a fragment is never followed by more lines). Compaction writes the state's records
 * into `FILE.tmp`, syncs it and renames it over the file: at start (when due), at a clean stop,
 * and at the first write after the file's garbage (lines later ones supersede, garbage.ts) has come
 * to outweigh the rest of it by {@link COMPACT_WHILE_RUNNING}'s 4 MiB (then instead of appending:
 * the new file holds the queued changes too). A compaction that fails removes its temporary file and leaves the file as
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
import { createGarbage } from "./garbage.js";

/** How often written changes are synced to the disk, at most. */
export const SYNC_EVERY_MS = 1_000;

/**
 * While the server runs, the file is compacted at the first write after its garbage exceeds the
 * rest of it by `slackBytes` (so a small file is not rewritten at every few writes; docs/server.md says so).
 */
export const COMPACT_WHILE_RUNNING = { slackBytes: 4 * 1024 * 1024 } as const;
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
  /** Queues one change (written at the end of the event loop's turn, or by {@link StateWriter.flush}); returns its sequence number. */
  append(change: StateChange): number;
  /** Settles once every change queued now has been written, or could not be ({@link StateWriter.durable} tells which). */
  written(): Promise<void>;
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
  let changes: StateChange[] = [];
  let waiting: (() => void)[] = [];
  let scheduled = false;
  let unsynced = false;
  let closed = false;
  let failing = false;
  let seq = 0;
  let durable = 0;
  let goodBytes = at.goodBytes;
  let mustTruncate = at.tornBytes > 0;
  const garbage = createGarbage();
  /** Garbage past which a compaction is tried again after one failed (not again at every write). */
  let retryAfterGarbage = 0;
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
    retryAfterGarbage = garbage.bytes + COMPACT_SLACK_BYTES;
    return false;
  }

  /**
   * Rewrites the file as the whole state (queued changes included), counting its lines for the
   * garbage unless it is the `last` (the stop's); the error when it could not (the file is then as it was).
   */
  function rewrite(last = false): unknown {
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
      garbage.rewritten();
      for (const record of stateRecords(save())) {
        const line = `${JSON.stringify(record)}\n`;
        if (!last && record.op !== "state") garbage.written(record, Buffer.byteLength(line));
        chunk += line;
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
    retryAfterGarbage = 0;
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

  /** Writes what is queued, then lets every answer waiting for it go. */
  function flush(): boolean {
    scheduled = false;
    const wrote = write();
    const done = waiting;
    waiting = [];
    for (const go of done) go();
    return wrote;
  }

  function write(): boolean {
    if (queued.length === 0) return true;
    if (closed) return false;
    const upTo = seq;
    const bytes = Buffer.from(`${queued.join("\n")}\n`);
    // Due when the file as it is holds more garbage than the rest (a rewrite instead of this append).
    const due = garbage.bytes > goodBytes - garbage.bytes + COMPACT_SLACK_BYTES && garbage.bytes >= retryAfterGarbage;
    for (let i = 0; i < changes.length; i++) garbage.written(changes[i]!, Buffer.byteLength(queued[i]!) + 1);
    queued = [];
    changes = [];
    if (due && compact()) return resumed(), true;
    try {
      writeAll(ready(), bytes);
    } catch (error) {
      cutBack();
      failing = true;
      events.lost(error);
      return false;
    }
    goodBytes += bytes.length;
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
    if (at.compactNow) compact();
  }
  return {
    append(change) {
      seq += 1;
      if (closed) return seq;
      queued.push(JSON.stringify(change));
      changes.push(change);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return seq;
    },
    written() {
      if (queued.length === 0) return Promise.resolve();
      return new Promise((go) => waiting.push(go));
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
      const error = rewrite(true); // the last: nothing will supersede its lines
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
