/**
 * How many bytes of a state file are garbage: lines a later line supersedes (a record stored
 * again, removed, or cleared with its tenant), which a compaction would drop. The writer compacts
 * when garbage outweighs the rest, not when the journal is long: a file that only grows (new
 * records) is never rewritten for nothing, and one that rewrites the same record over and over is
 * compacted as soon as most of it is old versions.
 *
 * It keeps the size of each record's last line, by tenant, collection and ID (the ID strings are
 * the store's own, so an entry costs a number and a map slot). A record the file held when it was
 * opened is unknown until it is written again or the file compacted: its first supersession is not
 * counted, so garbage is undercounted by at most the size of the file as opened.
 * @module
 */
import type { StateRecord } from "../../state/persist/records.js";

/** What is known of a state file's lines. */
export interface Garbage {
  /** Counts a line written to the file (`bytes` with its newline). */
  written(change: StateRecord, bytes: number): void;
  /** Bytes of superseded lines in the file. */
  readonly bytes: number;
  /** Starts over: the file is being rewritten (its records then counted by {@link Garbage.written}). */
  rewritten(): void;
}

/** The ID a record is stored under (an idempotency entry's is its key). */
const idOf = (value: object) => (value as { id?: string }).id ?? (value as { key?: string }).key;

/** Starts counting the garbage of a file. */
export function createGarbage(): Garbage {
  /** Tenant ID → collection → record ID → bytes of its last line. */
  let lines = new Map<string, Map<string, Map<string, number>>>();
  let bytes = 0;

  const collection = (tenantId: string, name: string) => {
    let tenant = lines.get(tenantId);
    if (tenant === undefined) lines.set(tenantId, (tenant = new Map()));
    let records = tenant.get(name);
    if (records === undefined) tenant.set(name, (records = new Map()));
    return records;
  };
  /** Every known line of a tenant is superseded. */
  const dropTenant = (tenantId: string) => {
    for (const records of lines.get(tenantId)?.values() ?? []) for (const size of records.values()) bytes += size;
    lines.delete(tenantId);
  };

  return {
    written(change, size) {
      switch (change.op) {
        case "put": {
          const id = idOf(change.value);
          if (id === undefined) return;
          const records = collection(change.tenantId, change.in);
          bytes += records.get(id) ?? 0;
          records.set(id, size);
          return;
        }
        case "delete": {
          const records = collection(change.tenantId, change.in);
          bytes += (records.get(change.id) ?? 0) + size; // the record and the line that removes it
          records.delete(change.id);
          return;
        }
        case "clear":
        case "delete-tenant":
          dropTenant(change.tenantId);
          bytes += size;
          return;
        case "reset":
          for (const tenantId of [...lines.keys()]) dropTenant(tenantId);
          bytes += size;
          return;
        default:
        // Tenants, keys, secrets and webhook books: kept as live lines (small and few).
      }
    },
    get bytes() {
      return bytes;
    },
    rewritten() {
      lines = new Map();
      bytes = 0;
    },
  };
}
