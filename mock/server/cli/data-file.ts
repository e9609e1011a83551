/**
 * `--data FILE`: a JSON fixture document read and validated at start. Every way it can be wrong
 * (unreadable, not JSON, an invalid field) is one line naming the file and the field.
 * @module
 */
import { readFileSync } from "node:fs";
import { type FixtureDocument, parseFixtureDocument } from "../../control/fixtures.js";
import { describeFieldErrors } from "../../lib/field-errors.js";
import { UsageError } from "./args.js";

/**
 * Reads and validates a fixture file.
 * @param path - the file named by `--data`
 * @returns the validated document
 * @throws {UsageError} when the file cannot be read, is not JSON, or has an invalid field
 */
export function readDataFile(path: string): FixtureDocument {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : code === "EACCES" ? "permission denied" : (code ?? "unreadable");
    throw new UsageError(`cannot read --data ${path}: ${reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new UsageError(`--data ${path} is not valid JSON: ${(error as Error).message.split("\n", 1)[0]}`);
  }
  const parsed = parseFixtureDocument(value);
  if (!parsed.ok) throw new UsageError(`--data ${path}: ${describeFieldErrors(parsed.errors)}`);
  return value as FixtureDocument;
}
