/**
 * A state file is bounded by memory, not by V8's limit on one string (about 512 MiB): a state
 * larger than that (560 logs of 1 MB payloads, each under the API's 1 MiB body cap, as the issue
 * that found the wall describes) is read, rewritten whole by the stop's compaction, and read again.
 * The file is written cheaply by the test, one record per line, as the server writes it.
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startMockServer } from "../../mock/server/index.js";
import { FORMAT_LINE } from "../../mock/state/persist/decode.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-size-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = "size_key";
const TENANT = "tenant_large";
const LOGS = 560;
const PAYLOAD = "p".repeat(1_000_000);
const AT = "2024-02-29T12:00:00.000Z";
/** V8's longest string on 64-bit platforms: 2^29 - 24 characters. */
const STRING_LIMIT = 2 ** 29 - 24;

const id = (prefix: string, n: number) => `${prefix}_${String(n).padStart(26, "0")}`;

/** Writes a state of {@link LOGS} logs (each with its prospect) in format 2, a record at a time. */
function writeLargeState(path: string): void {
  const fd = openSync(path, "w", 0o600);
  const line = (record: unknown) => writeSync(fd, `${JSON.stringify(record)}\n`);
  try {
    writeSync(fd, `${FORMAT_LINE}\n`);
    line({ op: "state", records: 2 + 2 * LOGS }); // a state written whole follows, as a compaction writes it
    line({ op: "tenant", value: { id: TENANT, createdAt: AT } });
    line({ op: "key", key: KEY, tenantId: TENANT });
    for (let n = 0; n < LOGS; n++) {
      const prospect = {
        id: id("prospect", n),
        tenantId: TENANT,
        createdAt: AT,
        email: null,
        phoneNumber: null,
        linkedinProfileUrl: null,
        name: null,
      };
      line({ op: "put", in: "prospects", tenantId: TENANT, value: prospect });
      const log = {
        id: id("prospectlog", n),
        tenantId: TENANT,
        prospectId: prospect.id,
        source: "bulk",
        type: "webhook",
        payload: { n, blob: PAYLOAD },
        createdAt: AT,
        createdProspect: true,
        idempotencyKey: null,
      };
      line({ op: "put", in: "prospectLogs", tenantId: TENANT, value: log });
    }
  } finally {
    closeSync(fd);
  }
}

describe("a state larger than the longest string V8 can hold", () => {
  it("loads, is compacted at the stop, and loads again", { timeout: 180_000 }, async () => {
    const path = join(dir, "large.jsonl");
    writeLargeState(path);
    expect(statSync(path).size).toBeGreaterThan(STRING_LIMIT);

    const first = await startMockServer({ port: 0, apiKeys: [KEY], stateFile: path, webhooks: { deliver: false } });
    expect(first.api.state.prospectLogs.list()).toHaveLength(LOGS);
    first.api.state.prospectLogs.create({ source: "added", payload: { blob: PAYLOAD } });
    await first.close(); // the stop rewrites the whole state (more than the string limit) into a new file
    expect(statSync(path).size).toBeGreaterThan(STRING_LIMIT);

    const second = await startMockServer({ port: 0, apiKeys: [KEY], stateFile: path, webhooks: { deliver: false } });
    try {
      const logs = second.api.state.prospectLogs.list();
      expect(logs).toHaveLength(LOGS + 1);
      expect(logs.at(-1)?.source).toBe("added");
      expect((logs[LOGS - 1]!.payload as { blob: string }).blob).toBe(PAYLOAD);
    } finally {
      await second.close();
    }
  });
});
