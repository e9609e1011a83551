/**
 * A saved state's text, line by line: its format line, then its records (a state written whole
 * and the journal after it are both records, replayed from nothing). Every record is checked
 * with the API's own schemas as it is read; the references between records are checked at the
 * end. A refusal names the line and the JSON Pointer of the field, never its value. Reading the
 * lines from a file is the state file's job (`mock/server/state-file/`); this is the codec.
 * @module
 */
// Classic zod where mini cannot serve: its objects compile their parser, twice as fast over a file of a million records.
import * as zc from "zod";
import { MockStateError } from "../../lib/errors.js";
import { describeFieldErrors } from "../../lib/field-errors.js";
import { COLLECTIONS, type CollectionName, keyOf, perCollection } from "../collections.js";
import { parseStateRecord, type RecordChecks, recordCount } from "./records.js";
import { danglingReference } from "./references.js";
import { applyChange, endReplay, expectWholeState, startReplay } from "./replay.js";
import type { SavedState } from "./saved-state.js";

const FORMAT = "prospectkit-mock-state";

/** The format this prospectkit writes and reads: one record per line. */
export const FORMAT_VERSION = 2;

/** The first line of every saved state: what it is and which version of the format. */
export const FORMAT_LINE = JSON.stringify({ format: FORMAT, version: FORMAT_VERSION });

/** Each collection's record schema, the API's own fields under a compiled object parser (refusals are described by the schemas themselves). */
const COMPILED_CHECKS: RecordChecks = perCollection((name) => zc.object(COLLECTIONS[name].schema.shape as zc.core.$ZodLooseShape));

/** A refusal of a saved state's text: a phrase that names the line (`line 3 is not a valid record: ...`). */
export class StateTextError extends Error {
  override readonly name = "StateTextError";
}

/** The refusal of a first line that is not this prospectkit's format line. */
function notTheFormat(line: string): StateTextError {
  const version = /^\{"format":"prospectkit-mock-state","version":(\d+)\}$/.exec(line)?.[1];
  return new StateTextError(
    version === undefined
      ? "not a prospectkit-mock state file (its first line is not the format line)"
      : `written in format version ${version}, which this prospectkit does not read`,
  );
}

/** The value of one line of JSON, or the refusal that names it. */
function parseLine(number: number, line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    // Never JSON.parse's own message: it quotes the text around the error, which may be an API key or a secret.
    const position = /at position (\d+)/.exec((error as Error).message)?.[1];
    const where = position === undefined ? "" : ` (at character ${Number(position) + 1})`;
    throw new StateTextError(`line ${number} is not valid JSON${where}`);
  }
}

/** Why a record (or the state it ends in) is invalid, as one phrase. */
function invalid(error: unknown): string {
  if (!(error instanceof MockStateError)) throw error;
  return error.errors.length > 0 ? describeFieldErrors(error.errors) : error.message;
}

/** What a decoded state holds. */
export interface DecodedState {
  readonly state: SavedState;
  /** How many records it was read from. */
  readonly records: number;
  /** How many records a state written whole would take (its journal outgrew it when `records` is far above). */
  readonly wholeRecords: number;
  /** The header of a state written whole that lacks records it counts (a copy cut short: refuse it), with its line and how many are missing. */
  readonly cutShort: { readonly line: number; readonly records: number; readonly missing: number } | undefined;
  /** Its first reference that points nowhere, with the record that holds it: the state is then refused (name its line, then throw {@link StateTextError}). */
  readonly dangling: ReturnType<typeof danglingReference>;
}

/**
 * Decodes a saved state fed one line at a time (numbered from 1, the format line).
 * @throws {StateTextError} from `line` for a line that is not the format line, not JSON or not a valid record
 */
export function createStateDecoder() {
  const replay = startReplay();
  let records = 0;
  let started = false;
  /** The header of the state written whole (a compaction's): its line and how many records it counts. */
  let header: { line: number; records: number } | undefined;
  return {
    /** Whether the format line was read. */
    get started(): boolean {
      return started;
    },
    line(text: string, number: number): void {
      if (number === 1) {
        if (text !== FORMAT_LINE) throw notTheFormat(text);
        started = true;
        return;
      }
      const value = parseLine(number, text);
      try {
        const record = parseStateRecord(value, COMPILED_CHECKS);
        if (record.op === "state") {
          expectWholeState(replay, record.records);
          header = { line: number, records: record.records };
        } else applyChange(replay, record);
      } catch (error) {
        throw new StateTextError(`line ${number} is not a valid record: ${invalid(error)}`);
      }
      records += 1;
    },
    end(): DecodedState {
      const cutShort = header !== undefined && replay.appendLeft > 0 ? { ...header, missing: replay.appendLeft } : undefined;
      const state = endReplay(replay);
      return { state, records, wholeRecords: recordCount(state), cutShort, dangling: cutShort === undefined ? danglingReference(state) : undefined };
    },
  };
}

/** The refusal of a first line cut short or foreign: undefined when `head` (all the text there is) could be the start of the format line. */
export function refusalOfHead(head: string): StateTextError | undefined {
  return FORMAT_LINE.startsWith(head) ? undefined : notTheFormat("");
}

/** Whether a line stores (puts) the record of a tenant's collection with this key: how the line of a refused record is found again. */
export function storesRecord(line: string, tenantId: string, collection: CollectionName, key: string): boolean {
  if (!line.includes(key)) return false;
  const value = JSON.parse(line) as { op?: unknown; in?: unknown; tenantId?: unknown; value?: object };
  return (
    value.op === "put" &&
    value.in === collection &&
    value.tenantId === tenantId &&
    value.value !== undefined &&
    keyOf(collection, value.value) === key
  );
}

/** The key of the record a line stores in a tenant's collection, or undefined for any other line. */
export function storedKey(line: string, tenantId: string, collection: CollectionName): string | undefined {
  if (!line.includes(`"in":"${collection}"`)) return undefined;
  const value = JSON.parse(line) as { op?: unknown; tenantId?: unknown; value?: object };
  return value.op === "put" && value.tenantId === tenantId && value.value !== undefined ? keyOf(collection, value.value) : undefined;
}

/** Where a reference that points nowhere is, in the line that stores its record: the JSON Pointer of its field there. */
export const pointerInLine = (record: NonNullable<NonNullable<DecodedState["dangling"]>["record"]>): string => `/value/${record.field}`;
