/**
 * `--state FILE` (`startMockServer`'s `stateFile`): the mock's whole state, every tenant, kept in
 * a file across restarts. Opening takes the file's lock and reads it (refusing, untouched, a file
 * that is not a valid state); attaching loads the state into the mock (or, for a fresh file, keeps
 * what the fixtures seeded), compacts the file to it (unless it holds just that state already) and
 * journals every change from then on.
 * @module
 */
import type { MockApi } from "../../core.js";
import { coreOf } from "../../create-mock-api.js";
import { DEFAULT_API_KEY } from "../../options.js";
import { StateFileError } from "./error.js";
import { acquireLock } from "./lock.js";
import { readStateFile } from "./read.js";
import { openStateWriter, type StateWriter } from "./writer.js";

/** A state file, locked for this server. */
export interface StateFile {
  /**
   * Puts the file's state into the mock (a fresh file keeps what the mock was seeded with), then
   * keeps the file up to date with every change.
   * @param apiKeys - the keys the server was started with: each one the state lacks is added to it
   */
  attach(api: MockApi, apiKeys: readonly string[] | Readonly<Record<string, string>> | undefined): void;
  /** Writes the changes made so far (before an answer leaves). */
  flush(): void;
  /** Flushes, compacts the file and releases its lock. */
  close(): void;
  /** Releases the lock without writing (the server did not start). */
  release(): void;
}

/** Whether the mock accepts `key`. */
function accepts(api: MockApi, key: string): boolean {
  return coreOf(api).authenticate(new Headers({ "x-api-key": key })).ok;
}

/** Adds each key the server was started with that the restored state lacks, so `--api-key` always lets its caller in. */
function admitKeys(api: MockApi, apiKeys: readonly string[] | Readonly<Record<string, string>> = [DEFAULT_API_KEY]): void {
  const { tenants, apiKeys: keys } = api.state;
  const wanted = Array.isArray(apiKeys)
    ? (apiKeys as readonly string[]).map((key) => [key, undefined] as const)
    : Object.entries(apiKeys as Readonly<Record<string, string>>);
  for (const [key, tenantId] of wanted) {
    if (accepts(api, key)) continue;
    if (tenantId === undefined ? api.state.defaultTenantId === null : tenants.get(tenantId) === undefined) {
      tenants.create({ ...(tenantId !== undefined && { id: tenantId }), apiKeys: [key] });
    } else keys.issue({ key, ...(tenantId !== undefined && { tenantId }) });
  }
}

/**
 * Locks and reads a state file.
 * @param path - the file (created on first use)
 * @param onError - told of a journal write that failed once the server runs
 * @throws {StateFileError} when the file is in use, unreadable, not a state file or invalid (then it is left untouched)
 */
export function openStateFile(path: string, onError: (error: StateFileError) => void): StateFile {
  const release = acquireLock(path);
  let read: ReturnType<typeof readStateFile>;
  try {
    read = readStateFile(path);
  } catch (error) {
    release();
    throw error;
  }
  const saved = read.state;
  let writer: StateWriter | null = null;
  let detach = () => {};
  const cannotWrite = (error: unknown) =>
    new StateFileError(path, `cannot write it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  return {
    attach(api, apiKeys) {
      const core = coreOf(api);
      if (saved !== null) core.loadState(saved);
      try {
        writer = openStateWriter(path, core.saveState, (error) => onError(cannotWrite(error)), saved !== null && read.compacted);
      } catch (error) {
        throw cannotWrite(error);
      }
      const journal = writer;
      core.setJournal((change) => journal.append(change));
      detach = () => core.setJournal(null);
      if (saved !== null) admitKeys(api, apiKeys); // journaled like any other change
    },
    flush: () => writer?.flush(),
    close() {
      detach();
      try {
        writer?.close();
      } catch (error) {
        onError(cannotWrite(error));
      } finally {
        writer = null;
        release();
      }
    },
    release,
  };
}
