/**
 * Where a state file really is. A path that is a symbolic link (or a chain of them, or one whose
 * target does not exist yet) is resolved once, at start, to the file it names; every write after
 * that (appends, the compaction's temporary file and its rename, the lock) happens beside that
 * target, so the link stays a link and the target is the one file that holds the state. Links
 * among the directories are resolved too, so two servers given two paths to one file share one lock.
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { StateFileError } from "./error.js";
import { stateFs } from "./fs.js";

/** How many links a path may go through (Linux's own limit, `ELOOP`). */
const MAX_LINKS = 40;

/**
 * The file a state file path names.
 * @param path - the state file, as given
 * @returns its target: an absolute path that is not a link (the file may not exist yet)
 * @throws {StateFileError} for a loop of links
 */
export function resolveStatePath(path: string): string {
  let current = resolve(path);
  for (let hops = 0; ; hops++) {
    let link: string;
    try {
      if (!stateFs.lstatSync(current).isSymbolicLink()) break;
      link = stateFs.readlinkSync(current);
    } catch {
      break; // nothing there yet (a new file, or the target of a dangling link): it is created there
    }
    if (hops === MAX_LINKS) throw new StateFileError(path, `it is a link through more than ${MAX_LINKS} links (a loop?)`);
    current = resolve(dirname(current), link);
  }
  try {
    return resolve(stateFs.realpathSync(dirname(current)), basename(current));
  } catch {
    return current; // its directory does not exist: opening it says so
  }
}
