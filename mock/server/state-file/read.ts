/**
 * Reading a state file: its format line, the state it was last compacted to, and the journal of
 * changes after it, replayed in order. A last line without its newline is a write the server
 * died in the middle of (never answered, so never acknowledged): it is left out. Anything else
 * that is wrong (a line that is not JSON or not a change, a record that fails validation, a
 * reference to nothing) refuses the whole file, naming the line or the field.
 * @module
 */
import { readFileSync } from "node:fs";
import { toFieldErrors } from "../../../src/schemas/index.js";
import { MockStateError } from "../../lib/errors.js";
import { applyChange, endReplay, parseSavedState, type SavedState, StateChangeSchema, startReplay } from "../../state/saved-state.js";
import { describeFieldErrors } from "../cli/field-errors.js";
import { StateFileError } from "./error.js";

/** The first line of every state file: what it is and which version of the format. */
export const FORMAT_LINE = JSON.stringify({ format: "prospectkit-mock-state", version: 1 });

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

/** Why a field of a line (or of the state it ends with) is invalid, as one phrase. */
function invalid(error: unknown): string {
  if (!(error instanceof MockStateError)) throw error;
  return error.errors.length > 0 ? describeFieldErrors(error.errors) : error.message;
}

/**
 * Reads a state file.
 * @param path - the file
 * @returns the state it holds (`null` when there is none yet: no file, or an empty one), and
 *   whether the file is exactly that state (`compacted`: no journal after it, no line cut short)
 * @throws {StateFileError} when it cannot be read, is not a state file, or holds an invalid state
 */
export function readStateFile(path: string): { readonly state: SavedState | null; readonly compacted: boolean } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { state: null, compacted: false };
    throw new StateFileError(path, `cannot read it: ${unreadable(code)}`);
  }
  if (text === "") return { state: null, compacted: false };
  const lines = text.split("\n");
  // The last element is "" after a final newline, or a torn write: never acknowledged either way.
  const torn = lines.pop() !== "";
  if (lines[0] !== FORMAT_LINE) {
    const version = /^\{"format":"prospectkit-mock-state","version":(\d+)\}$/.exec(lines[0] ?? "")?.[1];
    throw new StateFileError(
      path,
      version === undefined
        ? "not a prospectkit-mock state file (its first line is not the format line); the file is left as it is"
        : `written in format version ${version}, which this prospectkit does not read; the file is left as it is`,
    );
  }
  if (lines.length < 2) throw new StateFileError(path, "the state line is missing; the file is left as it is");
  let base: SavedState;
  try {
    base = parseSavedState(parseLine(path, 2, lines[1]!));
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    throw new StateFileError(path, `line 2 holds an invalid state: ${invalid(error)}; the file is left as it is`);
  }
  if (lines.length === 2) return { state: base, compacted: !torn }; // nothing to replay
  const replay = startReplay(base);
  for (let index = 2; index < lines.length; index++) {
    const value = parseLine(path, index + 1, lines[index]!);
    try {
      const change = StateChangeSchema.safeParse(value);
      if (!change.success) throw new MockStateError("invalid change", toFieldErrors(change.error.issues, value));
      applyChange(replay, change.data);
    } catch (error) {
      throw new StateFileError(path, `line ${index + 1} is not a valid change: ${invalid(error)}; the file is left as it is`);
    }
  }
  try {
    return { state: parseSavedState(endReplay(replay)), compacted: false };
  } catch (error) {
    throw new StateFileError(path, `its changes end in an invalid state: ${invalid(error)}; the file is left as it is`);
  }
}
