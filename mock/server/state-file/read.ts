/**
 * Reading a state file, one line at a time: its format line, then its records (format 2: the
 * state and the journal after it are both records, replayed from nothing), or the state line and
 * the journal of format 1 (still read; the next compaction writes format 2). Every record is
 * checked with the API's own schemas as it is read; the references between records are checked
 * at the end. Bytes after the last newline of the journal are a write the server died in (never
 * acknowledged): they are left out, and the writer cuts them off before it appends. A state
 * written whole that holds fewer records than its header counts (cut at a line or mid-line) is a
 * copy cut short, never a write the server died in: it is refused. Anything else that is wrong
 * refuses the whole file, naming the line and the JSON Pointer of the field, never its value.
 * @module
 */
// Classic zod where mini cannot serve: its objects compile their parser, twice as fast over a file of a million records.
import * as zc from "zod";
import { MockStateError } from "../../lib/errors.js";
import type { TenantCollection } from "../../state/journal.js";
import { applyChange, endReplay, expectWholeState, type Replay, startReplay } from "../../state/replay.js";
import { danglingReference, parseSavedState, type SavedState } from "../../state/saved-state.js";
import { parseStateRecord, RECORD_SCHEMAS, type RecordChecks, recordCount } from "../../state/state-records.js";
import { describeFieldErrors } from "../cli/field-errors.js";
import { StateFileError } from "./error.js";
import { stateFs } from "./fs.js";
import { readLines } from "./lines.js";

const FORMAT = "prospectkit-mock-state";

/** The format this prospectkit writes: one record per line. */
export const FORMAT_VERSION = 2;

/** The first line of every state file: what it is and which version of the format. */
export const FORMAT_LINE = JSON.stringify({ format: FORMAT, version: FORMAT_VERSION });

/** Format 1 (still read): the whole state as one JSON line, then a journal. */
const FORMAT_1_LINE = JSON.stringify({ format: FORMAT, version: 1 });

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
  /** Whether a compaction is due at start: the file is in format 1, or its journal outgrew the state. */
  readonly compactNow: boolean;
}

/** Each collection's record schema, the API's own fields under a compiled object parser (refusals are described by the schemas themselves). */
const COMPILED_CHECKS = Object.fromEntries(
  Object.entries(RECORD_SCHEMAS).map(([collection, schema]) => [collection, zc.object(schema.shape as zc.core.$ZodLooseShape)]),
) as Record<TenantCollection, zc.ZodObject> as RecordChecks;

/** The reason a read of the file failed, from its error code. */
function unreadable(code: string | undefined): string {
  return code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (code ?? "unreadable");
}

/** The value of one line of JSON, or the problem with it. */
function parseLine(path: string, number: number, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    // Never JSON.parse's own message: it quotes the text around the error, which may be an API key or a secret.
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    const where = position === undefined ? "" : ` (at character ${Number(position) + 1})`;
    throw new StateFileError(path, `line ${number} is not valid JSON${where}; the file is left as it is`);
  }
}

/** Why a record (or the state it ends in) is invalid, as one phrase. */
function invalid(error: unknown): string {
  if (!(error instanceof MockStateError)) throw error;
  return error.errors.length > 0 ? describeFieldErrors(error.errors) : error.message;
}

/** The format version of a first line, or the refusal of a file that is not a state file this prospectkit reads. */
function versionOf(path: string, line: string): 1 | 2 {
  if (line === FORMAT_LINE) return 2;
  if (line === FORMAT_1_LINE) return 1;
  const version = /^\{"format":"prospectkit-mock-state","version":(\d+)\}$/.exec(line)?.[1];
  throw new StateFileError(
    path,
    version === undefined
      ? "not a prospectkit-mock state file (its first line is not the format line); the file is left as it is"
      : `written in format version ${version}, which this prospectkit does not read; the file is left as it is`,
  );
}

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
    let version: 1 | 2 | undefined;
    let replay: Replay | undefined;
    let changes = 0;
    /** The header of the state written whole (a compaction's): its line and how many records it counts. */
    let header: { line: number; records: number } | undefined;
    const read = readAll(path, fd, end, (line, number) => {
      if (number === 1) {
        version = versionOf(path, line);
        if (version === 2) replay = startReplay();
        return;
      }
      const value = parseLine(path, number, line);
      if (replay === undefined) {
        try {
          replay = startReplay(parseSavedState(value));
        } catch (error) {
          throw new StateFileError(path, `line 2 holds an invalid state: ${invalid(error)}; the file is left as it is`);
        }
        return;
      }
      try {
        const record = parseStateRecord(value, COMPILED_CHECKS);
        if (record.op === "state") {
          expectWholeState(replay, record.records);
          header = { line: number, records: record.records };
        } else applyChange(replay, record);
      } catch (error) {
        throw new StateFileError(path, `line ${number} is not a valid record: ${invalid(error)}; the file is left as it is`);
      }
      changes += 1;
    });
    if (version === undefined) {
      // Not even the format line is whole: a file whose first write was cut short, or not a state file.
      if (FORMAT_LINE.startsWith(stateFs.readFileSync(target, "utf8").slice(0, end) as string)) return { ...empty, tornBytes: end };
      versionOf(path, "");
    }
    if (replay === undefined) throw new StateFileError(path, "the state line is missing; the file is left as it is");
    if (header !== undefined && replay.appendLeft > 0) throw cutShort(path, header, replay.appendLeft);
    const state = endReplay(replay);
    const dangling = danglingReference(state);
    if (dangling !== undefined) {
      const line = dangling.record === undefined ? undefined : lineOf(path, fd, read.goodBytes, dangling.record);
      const where = line === undefined ? `its records end in an invalid state: ${dangling.pointer}` : `line ${line.number}: ${line.pointer}`;
      throw new StateFileError(path, `${where}: ${dangling.detail}; the file is left as it is`);
    }
    const compactNow = version === 1 || changes > COMPACT_AT_START.factor * recordCount(state) + COMPACT_AT_START.slack;
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
function cutShort(path: string, header: { line: number; records: number }, missing: number): StateFileError {
  const whole = header.records - missing;
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
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_STRING_TOO_LONG") throw new StateFileError(path, `line ${number + 1} is too long to read; the file is left as it is`);
    throw new StateFileError(path, `cannot read it: ${unreadable(code)}`);
  }
}

/**
 * The last line that stored a record (its put), and the pointer to a field of it there: read
 * again only when a reference of that record points nowhere, so a valid file is read once.
 */
function lineOf(
  path: string,
  fd: number,
  end: number,
  record: NonNullable<ReturnType<typeof danglingReference>>["record"] & object,
): { number: number; pointer: string } | undefined {
  let found: number | undefined;
  readAll(path, fd, end, (line, number) => {
    if (number === 1 || !line.includes(record.id)) return;
    const value = JSON.parse(line) as { op?: unknown; in?: unknown; tenantId?: unknown; value?: { id?: unknown } };
    if (value.op === "put" && value.in === record.collection && value.tenantId === record.tenantId && value.value?.id === record.id) found = number;
  });
  return found === undefined ? undefined : { number: found, pointer: `/value/${record.field}` };
}

/**
 * The line that stores a record of a tenant's collection a second time (found again only when a
 * load saw one: only a file edited by hand holds one).
 * @returns the line, or undefined when none does
 */
export function lineStoredTwice(path: string, target: string, tenantId: string, collection: TenantCollection): number | undefined {
  const seen = new Set<unknown>();
  let found: number | undefined;
  const fd = stateFs.openSync(target, "r");
  try {
    readAll(path, fd, stateFs.fstatSync(fd).size, (line, number) => {
      if (number === 1 || found !== undefined || !line.includes(`"in":"${collection}"`)) return;
      const record = JSON.parse(line) as { op?: unknown; tenantId?: unknown; value?: Record<string, unknown> };
      if (record.op !== "put" || record.tenantId !== tenantId) return;
      const key = collection === "idempotency" ? record.value?.["key"] : record.value?.["id"];
      if (seen.has(key)) found = number;
      seen.add(key);
    });
  } finally {
    stateFs.closeSync(fd);
  }
  return found;
}
