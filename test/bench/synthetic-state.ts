/**
 * A state file written directly, as a clean stop leaves it (format 2: the format line, then one
 * record per line, in compaction order), holding `logs` prospect logs of the bench's shape (a new
 * prospect each, as `POST /v0/prospect_logs` with a new email makes). Writing a million logs this
 * way takes seconds, where a million requests would take minutes; the CLI refuses the file, and so
 * fails the bench, if the format ever changes.
 */
import { closeSync, openSync, writeSync } from "node:fs";

/** The first line of a state file in the format this prospectkit writes (`mock/server/state-file/read.ts`). */
const FORMAT_LINE = '{"format":"prospectkit-mock-state","version":2}';

/** An ID of the API's shape: the prefix, then 26 lower-case letters or digits. */
const id = (prefix: string, n: number) => `${prefix}_01hz${n.toString(36).padStart(22, "0")}`;

/**
 * Writes the file.
 * @param path - where
 * @param logs - how many logs (and prospects)
 * @param key - the API key of its one tenant
 * @returns the file's size in bytes
 */
export function writeSyntheticState(path: string, logs: number, key: string): number {
  const fd = openSync(path, "w", 0o600);
  let size = 0;
  let chunk = "";
  const line = (record: unknown) => {
    chunk += `${JSON.stringify(record)}\n`;
    if (chunk.length < 1 << 20) return;
    size += writeSync(fd, chunk);
    chunk = "";
  };
  const tenantId = "tenant_01hzbench00000000000000000";
  const at = (n: number) => new Date(Date.UTC(2024, 1, 29, 12) + n).toISOString();
  try {
    chunk = `${FORMAT_LINE}\n`;
    line({ op: "state", records: 2 + 2 * logs }); // as a compaction writes it: the records of a whole state follow
    line({ op: "tenant", value: { id: tenantId, createdAt: at(0) } });
    line({ op: "key", key, tenantId });
    for (let n = 0; n < logs; n++) {
      const value = {
        id: id("prospect", n),
        tenantId,
        createdAt: at(n),
        email: `new-${n}@example.com`,
        phoneNumber: null,
        linkedinProfileUrl: null,
        name: null,
      };
      line({ op: "put", in: "prospects", tenantId, value });
    }
    for (let n = 0; n < logs; n++) {
      const value = {
        id: id("prospectlog", n),
        tenantId,
        prospectId: id("prospect", n),
        source: "crm",
        type: "webhook",
        payload: { stage: "demo", score: 42 },
        createdAt: at(n),
        createdProspect: true,
        idempotencyKey: null,
      };
      line({ op: "put", in: "prospectLogs", tenantId, value });
    }
    size += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return size;
}
