/**
 * Reading a state file, one line at a time, each handed to the saved state's decoder
 * (`mock/state/persist/decode.ts`: the format line, then the records, checked as they come, their
 * references at the end). Bytes after the last newline are a write the server died in (never
 * acknowledged): they are left out, and the writer cuts them off before it appends. Anything else
 * that is wrong refuses the whole file, naming the line and the JSON Pointer of the field, never
 * its value; so is a state written whole holding fewer records than its header counts (a copy cut
 * short: the server never leaves one).
 * @module
 */
import type { CollectionName } from "../../state/collections.js";
import { createStateDecoder, pointerInLine, refusalOfHead, StateTextError, storedKey, storesRecord } from "../../state/persist/decode.js";
import type { SavedState } from "../../state/persist/saved-state.js";
import { StateFileError } from "./error.js";
import { stateFs } from "./fs.js";
import { readLines } from "./lines.js";

export { FORMAT_LINE } from "../../state/persist/decode.js";

/** A file whose lines after the first outnumber `factor` times the records of the state it ends in, plus `slack`, is compacted at start (docs/server.md says so). */
export const COMPACT_AT_START = { factor: 2, slack: 10_000 } as const;

/** What a state file holds. */
export interface StateFileContents {
  /** The state (`null` for a new file: none, or an empty one). */
  readonly state: SavedState | null;
  /** The byte offset just past its last complete line. */
  readonly goodBytes: number;
  /** The bytes after that: a write cut short, to cut off before anything is appended. */
  readonly tornBytes: number;
  /** Whether a compaction is due at start: its journal outgrew the state. */
  readonly compactNow: boolean;
}

/** The reason a read of the file failed, from its error code. */
function unreadable(code: string | undefined): string {
  return code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (code ?? "unreadable");
}

/** The refusal of the file for what its text holds wrong. */
const refused = (path: string, error: StateTextError) => new StateFileError(path, `${error.message}; the file is left as it is`);

/**
 * Reads a state file.
 * @param path - the file, as given (named in errors)
 * @param target - the file it resolves to (`resolveStatePath`)
 * @param limit - read only this many bytes (what is known to be whole after a failed write)
 * @throws {StateFileError} when it cannot be read, is not a state file, or holds an invalid state
 */
export function readStateFile(path: string, target: string, limit = Number.POSITIVE_INFINITY): StateFileContents {
  const empty = { state: null, goodBytes: 0, tornBytes: 0, compactNow: false };
  let fd: number;
  try {
    fd = stateFs.openSync(target, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return empty;
    throw new StateFileError(path, `cannot read it: ${unreadable(code)}`);
  }
  try {
    const stat = stateFs.fstatSync(fd);
    if (stat.isDirectory()) throw new StateFileError(path, "cannot read it: it is a directory");
    const end = Math.min(limit, stat.size);
    if (end === 0) return empty;
    const decoder = createStateDecoder();
    const read = readAll(path, fd, end, (line, number) => decoder.line(line, number));
    if (!decoder.started) {
      // Not even the format line is whole: a file whose first write was cut short, or not a state file.
      const refusal = refusalOfHead(stateFs.readFileSync(target, "utf8").slice(0, end) as string);
      if (refusal === undefined) return { ...empty, tornBytes: end };
      throw refused(path, refusal);
    }
    const { state, records, wholeRecords, dangling, cutShort } = decoder.end();
    if (cutShort !== undefined) throw cutShortRefusal(path, cutShort);
    if (dangling !== undefined) {
      const { record } = dangling;
      const line = record === undefined ? undefined : lineOf(path, fd, read.goodBytes, record);
      const where = line === undefined ? `its records end in an invalid state: ${dangling.pointer}` : `line ${line}: ${pointerInLine(record!)}`;
      throw new StateFileError(path, `${where}: ${dangling.detail}; the file is left as it is`);
    }
    const compactNow = records > COMPACT_AT_START.factor * wholeRecords + COMPACT_AT_START.slack;
    return { state, goodBytes: read.goodBytes, tornBytes: read.tornBytes, compactNow };
  } finally {
    stateFs.closeSync(fd);
  }
}

/**
 * The refusal of a state written whole that lacks records its header counts: a copy or a backup
 * cut short (a compaction is renamed into place only once it is whole, so the server never
 * leaves one). Only a torn line of the journal after it is a write the server died in.
 */
function cutShortRefusal(path: string, header: { readonly line: number; readonly records: number; readonly missing: number }): StateFileError {
  const whole = header.records - header.missing;
  return new StateFileError(
    path,
    `line ${header.line + whole + 1}: the state is cut short: ${whole} of ${header.records} records (counted by its header, line ${header.line}) are whole; the file is left as it is`,
  );
}

/** Reads every line, turning a failed read or a line too long for one string into the file's refusal. */
function readAll(path: string, fd: number, end: number, onLine: (line: string, number: number) => void) {
  let number = 0;
  try {
    return readLines(fd, end, (line, n) => {
      number = n;
      onLine(line, n);
    });
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    if (error instanceof StateTextError) throw refused(path, error);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_STRING_TOO_LONG") throw new StateFileError(path, `line ${number + 1} is too long to read; the file is left as it is`);
    throw new StateFileError(path, `cannot read it: ${unreadable(code)}`);
  }
}

/**
 * The last line that stored a record (its put): read again only when a reference of that record
 * points nowhere, so a valid file is read once.
 */
function lineOf(
  path: string,
  fd: number,
  end: number,
  record: { readonly tenantId: string; readonly collection: CollectionName; readonly id: string },
) {
  let found: number | undefined;
  readAll(path, fd, end, (line, number) => {
    if (number > 1 && storesRecord(line, record.tenantId, record.collection, record.id)) found = number;
  });
  return found;
}

/**
 * The line that stores a record of a tenant's collection a second time (found again only when a
 * load saw one: only a file edited by hand holds one).
 * @returns the line, or undefined when none does
 */
export function lineStoredTwice(path: string, target: string, tenantId: string, collection: CollectionName): number | undefined {
  const seen = new Set<unknown>();
  let found: number | undefined;
  const fd = stateFs.openSync(target, "r");
  try {
    readAll(path, fd, stateFs.fstatSync(fd).size, (line, number) => {
      if (number === 1 || found !== undefined) return;
      const key = storedKey(line, tenantId, collection);
      if (key === undefined) return;
      if (seen.has(key)) found = number;
      seen.add(key);
    });
  } finally {
    stateFs.closeSync(fd);
  }
  return found;
}
