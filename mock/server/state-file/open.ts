/**
 * `--state FILE` (`startMockServer`'s `stateFile`): the mock's whole state, every tenant, kept in
 * a file across restarts, and no write acknowledged before it is in the file. Opening resolves
 * the path (a link: once, to its target), takes the file's lock and reads it (refusing, untouched,
 * a file that is not a valid state); attaching loads the state into the mock (or, for a new file,
 * keeps what the fixtures seeded) and journals every change from then on. When a write fails
 * (a full disk, an I/O error, a read-only file system), the changes that were not written are
 * undone (the mock goes back to what the file holds), the requests that made them are answered
 * 503 `state_not_persisted`, and every request that could write is refused until a write works
 * again; reads go on. Both turns are said once, on stderr and in the console's event feed.
 * @module
 */
import type { MockHost } from "../../create-mock-api.js";
import { MockStateError } from "../../lib/errors.js";
import { DEFAULT_API_KEY } from "../../options.js";
import type { Durability, NotPersisted } from "../../pipeline/steps/durability.js";
import type { CollectionName } from "../../state/collections.js";
import type { SavedState } from "../../state/persist/saved-state.js";
import { StateFileError } from "./error.js";
import { describeFsError } from "./fs.js";
import { acquireLock } from "./lock.js";
import { resolveStatePath } from "./path.js";
import { lineStoredTwice, readStateFile, type StateFileContents } from "./read.js";
import { createScopes } from "./scopes.js";
import { openStateWriter, type StateWriter } from "./writer.js";

/** The `Retry-After` of a write refused because the file cannot be written, in seconds. */
export const RETRY_AFTER_SECONDS = 2;

/** A state file, locked for this server. */
export interface StateFile {
  /**
   * Puts the file's state into the mock (a new file keeps what the mock was seeded with), then
   * keeps the file up to date with every change.
   * @param apiKeys - the keys the server was started with: each one the state lacks is added to it
   * @throws {StateFileError} when the file cannot be written at all
   */
  attach(mock: MockHost, apiKeys: readonly string[] | Readonly<Record<string, string>> | undefined): void;
  /** Whether writes are taken now (the delivery loop waits while they are not). */
  writable(): boolean;
  /** Writes what is queued, compacts the file and releases its lock. */
  close(): void;
  /** Releases the lock without writing (the server did not start). */
  release(): void;
}

/** Adds each key the server was started with that the restored state lacks, so `--api-key` always lets its caller in. */
function admitKeys(mock: MockHost, apiKeys: readonly string[] | Readonly<Record<string, string>> = [DEFAULT_API_KEY]): void {
  const { api } = mock;
  const accepts = (key: string) => mock.authenticate(new Headers({ "x-api-key": key })).ok;
  const { tenants, apiKeys: keys } = api.state;
  const wanted = Array.isArray(apiKeys)
    ? (apiKeys as readonly string[]).map((key) => [key, undefined] as const)
    : Object.entries(apiKeys as Readonly<Record<string, string>>);
  for (const [key, tenantId] of wanted) {
    if (accepts(key)) continue;
    if (tenantId === undefined ? api.state.defaultTenantId === null : tenants.get(tenantId) === undefined) {
      tenants.create({ ...(tenantId !== undefined && { id: tenantId }), apiKeys: [key] });
    } else keys.issue({ key, ...(tenantId !== undefined && { tenantId }) });
  }
}

/**
 * Locks and reads a state file.
 * @param path - the file (created on first use; a link is followed once, to the file it names)
 * @param onNotice - told, one line each, of what happens to the file once the server runs (a write
 *   that failed, writes working again, a compaction that failed, a lock taken over)
 * @throws {StateFileError} when the file is in use, unreadable, not a state file or invalid (then it is left untouched)
 */
export function openStateFile(path: string, onNotice: (message: string) => void): StateFile {
  const target = resolveStatePath(path);
  const release = acquireLock(path, target, onNotice);
  let read: StateFileContents | null;
  try {
    read = readStateFile(path, target);
  } catch (error) {
    release();
    throw error;
  }
  const scopes = createScopes();
  let writer: StateWriter | null = null;
  let attached: MockHost | null = null;
  let undos = 0;
  let lastError: unknown;
  /** The file could not be read back after a failed write: the mock may hold changes it lacks, so no write is taken again. */
  let broken = false;
  let closing = false;
  let refused = false;

  const tell = (writable: boolean, detail: string) => {
    onNotice(`state file ${path}: ${detail}`);
    attached?.api.changes.announce(null, { kind: "state-file", writable, detail: `state file ${path}: ${detail}` });
  };
  const refusal = (): NotPersisted => ({
    detail: `The change could not be written to the state file ${path} (${describeFsError(lastError)}), so it was not made. Retry once the file can be written again.`,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });

  /** Takes the mock back to what the file holds: the changes that were not written are undone. */
  function undo(error: unknown): void {
    lastError = error;
    if (closing || writer === null || attached === null) return;
    undos += 1;
    scopes.loseAfter(writer.durable);
    try {
      const whole = readStateFile(path, target, writer.goodBytes);
      if (whole.state !== null) attached.load(whole.state);
    } catch (reading) {
      broken = true;
      onNotice(`state file ${path}: cannot read it back to undo a write that failed (${(reading as Error).message}); restart the server`);
    }
    if (refused) return;
    refused = true;
    tell(
      false,
      `cannot write it (${describeFsError(error)}): the change was undone and refused (503 state_not_persisted); writes are refused until the file can be written again`,
    );
  }

  /** The refusal of a file that stores a record twice, naming its line. */
  function storedTwice(error: MockStateError, state: SavedState): StateFileError {
    const pointer = error.errors[0]?.pointer ?? "";
    const [, t, collection] = pointer.split("/").slice(1);
    const tenantId = state.tenants[Number(t)]?.tenant.id;
    const line = tenantId === undefined ? undefined : lineStoredTwice(path, target, tenantId, collection as CollectionName);
    const where = line === undefined ? pointer : `line ${line}: a record of ${pointer}`;
    return new StateFileError(path, `${where} is stored twice; the file is left as it is`);
  }

  const durability: Durability = {
    track: (run) => scopes.track(undos, run),
    refusal() {
      if (broken) return refusal();
      if (writer === null || !writer.failing || writer.probe()) return null;
      return refusal();
    },
    async settle() {
      const scope = scopes.current();
      if (writer === null || scope === undefined || scope.last === 0) return null;
      await writer.written(); // the group commit of this turn of the event loop
      return scope.lost || scope.last > (writer?.durable ?? 0) ? refusal() : null;
    },
  };

  return {
    attach(mock, apiKeys) {
      const contents = read!;
      read = null; // the arrays of a large state are not kept twice
      if (contents.state !== null) {
        try {
          mock.load(contents.state);
        } catch (error) {
          if (!(error instanceof MockStateError)) throw error;
          throw storedTwice(error, contents.state);
        }
      }
      try {
        writer = openStateWriter(
          target,
          mock.save,
          { fresh: contents.state === null, ...contents },
          {
            lost: undo,
            resumed() {
              if (!refused) return;
              refused = false;
              tell(true, "written again: writes are taken again");
            },
            notice: (message) => onNotice(`state file ${path}: ${message}`),
          },
        );
      } catch (error) {
        throw new StateFileError(path, `cannot write it (${describeFsError(error)})`);
      }
      const journal = writer;
      // Every change is appended, and every write of the server's requests and of api.fetch kept before it is answered.
      mock.attach({
        journal(change) {
          const sequence = journal.append(change);
          const scope = scopes.current();
          if (scope !== undefined) scope.last = sequence;
        },
        onDiscarded() {
          const scope = scopes.current();
          if (scope !== undefined && undos > scope.undosAtStart) scope.lost = true;
        },
        durability,
      });
      if (contents.state !== null) admitKeys(mock, apiKeys); // journaled like any other change
      if (!journal.flush()) {
        mock.attach(null);
        journal.close();
        throw new StateFileError(path, `cannot write it (${describeFsError(lastError)})`);
      }
      attached = mock;
    },
    writable: () => !broken && !(writer?.failing ?? false),
    close() {
      closing = true;
      attached?.attach(null);
      try {
        writer?.close();
      } finally {
        writer = null;
        release();
      }
    },
    release,
  };
}
