/**
 * Every file operation of the state file, in one object: the writer, the reader and the lock call
 * through it, so a test can make any of them fail (a full disk, an I/O error, a read-only file
 * system) at any site and moment, and prove what the server then does.
 * @module
 */
import {
  chmodSync,
  closeSync,
  fdatasync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from "node:fs";

/** The file operations the state file uses (Node's own, unless a test replaced one). */
export const stateFs = {
  chmodSync,
  closeSync,
  fdatasync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  unlinkSync,
  utimesSync,
  /** Writes `length` bytes of `buffer` from `offset` at the file's current position (or end, in append mode). */
  writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number): number => writeSync(fd, buffer, offset, length),
};

/** Why a file operation failed, as a short phrase for messages (its error code, never a path or a value). */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const phrases: Readonly<Record<string, string>> = {
    ENOSPC: "no space left on the device",
    EDQUOT: "the disk quota is exceeded",
    EROFS: "the file system is read-only",
    EIO: "an I/O error",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EISDIR: "it is a directory",
    EMFILE: "too many open files",
  };
  if (code === undefined) return "an unexpected error";
  const phrase = phrases[code];
  return phrase === undefined ? code : `${code}: ${phrase}`;
}
