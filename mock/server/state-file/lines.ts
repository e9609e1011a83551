/**
 * A file read as lines, a chunk at a time: its size never meets V8's limit on one string, only
 * one line's does (a record, which the API's body limit keeps near 1 MiB).
 * @module
 */
import { stateFs } from "./fs.js";

/** How much of the file is read at once. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/** What {@link readLines} found: where its last complete line ends, and what follows it. */
export interface LinesRead {
  /** The byte offset just past the last complete line (its newline). */
  readonly goodBytes: number;
  /** The bytes after it, up to the limit: a line cut short (no newline). */
  readonly tornBytes: number;
}

/**
 * Reads a file's complete lines in order, from its start.
 * @param fd - the file, open for reading
 * @param limit - how many bytes of the file to read at most
 * @param onLine - called with each complete line (its text without the newline, its number from 1); may throw to stop
 */
export function readLines(fd: number, limit: number, onLine: (line: string, number: number) => void): LinesRead {
  const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(limit, 1)));
  /** The start of a line that began in an earlier chunk. */
  let carried: Buffer[] = [];
  let carriedBytes = 0;
  let position = 0;
  let goodBytes = 0;
  let number = 0;
  while (position < limit) {
    const read = stateFs.readSync(fd, chunk, 0, Math.min(chunk.length, limit - position), position);
    if (read === 0) break;
    position += read;
    let start = 0;
    for (let end = chunk.indexOf(10, 0); end !== -1 && end < read; end = chunk.indexOf(10, start)) {
      let text: string;
      if (carriedBytes === 0) text = chunk.toString("utf8", start, end);
      else {
        text = Buffer.concat([...carried, chunk.subarray(start, end)]).toString("utf8");
        carried = [];
        carriedBytes = 0;
      }
      goodBytes = position - read + end + 1;
      onLine(text, ++number);
      start = end + 1;
    }
    if (start < read) {
      carried.push(Buffer.from(chunk.subarray(start, read)));
      carriedBytes += read - start;
    }
  }
  return { goodBytes, tornBytes: position - goodBytes };
}
