/**
 * When the state file is rewritten whole (compacted), as docs/server.md says: at a clean stop; at
 * start, when its lines after the first outnumber twice the records of its state, plus 10,000; and while
 * the server runs, once the lines appended since the last rewrite pass twice the size the file had
 * then, plus 4 MiB. The guide's sentences are checked against the thresholds the code uses, and
 * both thresholds are tried on both sides.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { COMPACT_AT_START } from "../../mock/server/state-file/read.js";
import { COMPACT_WHILE_RUNNING } from "../../mock/server/state-file/writer.js";
import { ROOT } from "./support/cli-process.js";

const guide = readFileSync(join(ROOT, "docs/server.md"), "utf8").replace(/\s+/g, " ");
const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-compaction-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MIB = 1024 * 1024;
const twice = (factor: number) => (factor === 2 ? "twice" : `${factor} times`);

describe("docs/server.md states the thresholds the code uses", () => {
  const SENTENCES: readonly { when: string; sentence: string }[] = [
    {
      when: "at start",
      sentence: `at start, when its lines after the first outnumber ${twice(COMPACT_AT_START.factor)} the records of its state, plus ${COMPACT_AT_START.slack.toLocaleString("en-US")}`,
    },
    {
      when: "while the server runs",
      sentence: `once the lines appended since the last rewrite (or the start) pass ${twice(COMPACT_WHILE_RUNNING.factor)} the size the file had then, plus ${COMPACT_WHILE_RUNNING.slackBytes / MIB} MiB`,
    },
  ];

  it.each(SENTENCES)("$when", ({ sentence }) => {
    expect(guide).toContain(sentence);
  });
});

describe("while the server runs, the file is rewritten once its appended lines pass twice its size, plus 4 MiB", () => {
  /** Each log holds this much payload: the rows append just under, and just over, the threshold. */
  const BLOB = 1_000_000;
  const ROWS: readonly { logs: number; rewritten: boolean }[] = [
    { logs: Math.floor(COMPACT_WHILE_RUNNING.slackBytes / BLOB), rewritten: false },
    { logs: Math.floor(COMPACT_WHILE_RUNNING.slackBytes / BLOB) + 1, rewritten: true },
  ];

  it.each(ROWS)("$logs logs of 1 MB over a small state: rewritten $rewritten", async ({ logs, rewritten }) => {
    const path = join(dir, `state-${++count}.jsonl`);
    server = await startMockServer({ port: 0, apiKeys: ["compaction_key"], seed: 1, stateFile: path, webhooks: { deliver: false } });
    const startSize = readFileSync(path).length;
    expect(COMPACT_WHILE_RUNNING.factor * startSize).toBeLessThan(BLOB / 2); // the state is small: the slack decides
    for (let i = 0; i < logs; i++) server.api.state.prospectLogs.create({ source: `bulk-${i}`, payload: { blob: "x".repeat(BLOB) } });
    await new Promise((done) => setImmediate(done));
    const lines = readFileSync(path, "utf8").split("\n").slice(0, -1);
    const header = JSON.parse(lines[1]!) as { op: string; records: number };
    // Rewritten: the header counts every line after it; else the appended lines follow the records it counts.
    expect(header.records === lines.length - 2).toBe(rewritten);
  });
});

describe("at start, the file is rewritten when its lines after the first outnumber twice the records of its state, plus 10,000", () => {
  const ROWS: readonly { over: number; rewritten: boolean }[] = [
    { over: 0, rewritten: false },
    { over: 1, rewritten: true },
  ];

  it.each(ROWS)("the threshold plus $over appended lines: rewritten $rewritten", async ({ over, rewritten }) => {
    const path = join(dir, `state-${++count}.jsonl`);
    const options = { port: 0, apiKeys: ["compaction_key"], seed: 1, stateFile: path, webhooks: { deliver: false } };
    server = await startMockServer(options);
    await server.close(); // written whole
    const records = (JSON.parse(readFileSync(path, "utf8").split("\n")[1]!) as { records: number }).records;
    // The lines after the first: the header, the state's records, the appended ones.
    const appended = COMPACT_AT_START.factor * records + COMPACT_AT_START.slack - (1 + records) + over;
    // Each revokes a key nobody holds: the state, and so its count of records, stays as it was.
    const line = `${JSON.stringify({ op: "key", key: "compaction_key_never_issued", tenantId: null })}\n`;
    appendFileSync(path, line.repeat(appended));

    server = await startMockServer(options);

    const lines = readFileSync(path, "utf8").split("\n").slice(0, -1);
    const header = JSON.parse(lines[1]!) as { records: number };
    // Rewritten: the header counts every line after it.
    expect(header.records === lines.length - 2).toBe(rewritten);
    if (!rewritten) expect(lines.length).toBe(records + 2 + appended);
  });
});
