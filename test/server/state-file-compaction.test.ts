/**
 * When the state file is rewritten whole (compacted), as docs/server.md says: at a clean stop; at
 * start, when its lines after the first outnumber twice the records of its state, plus 10,000; and while
 * the server runs, at the first write after its garbage (lines later ones supersede) outweighs the
 * rest of the file by 4 MiB, so a file that only grows is never rewritten. The guide's sentences are checked against the thresholds the code uses, and
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
      sentence: `at the first write after its garbage (the lines later ones supersede) outweighs the rest of the file by ${COMPACT_WHILE_RUNNING.slackBytes / MIB} MiB`,
    },
  ];

  it.each(SENTENCES)("$when", ({ sentence }) => {
    expect(guide).toContain(sentence);
  });
});

describe("while the server runs, the file is rewritten at the first write after its garbage outweighs the rest by 4 MiB", () => {
  const BLOB = 1_000_000;
  /** Starts a server on a new file; `write` makes its changes, each in its own turn; then one more small write. */
  async function rewrittenAfter(write: (state: MockServer["api"]["state"]) => void): Promise<boolean> {
    const path = join(dir, `state-${++count}.jsonl`);
    server = await startMockServer({ port: 0, apiKeys: ["compaction_key"], seed: 1, stateFile: path, webhooks: { deliver: false } });
    expect(readFileSync(path).length).toBeLessThan(BLOB / 2); // the state is small: the slack decides
    write(server.api.state);
    await new Promise((done) => setImmediate(done));
    server.api.state.pages.create({}); // the next write, which compacts when due
    await new Promise((done) => setImmediate(done));
    const lines = readFileSync(path, "utf8").split("\n").slice(0, -1);
    const header = JSON.parse(lines[1]!) as { op: string; records: number };
    // Rewritten: the header counts every line after it; else the appended lines follow the records it counts.
    return header.records === lines.length - 2;
  }

  it("a file that only grows (new logs of 1 MB, past the slack) is never rewritten", async () => {
    const logs = Math.ceil(COMPACT_WHILE_RUNNING.slackBytes / BLOB) + 1;
    expect(
      await rewrittenAfter((state) => {
        for (let i = 0; i < logs; i++) state.prospectLogs.create({ source: `bulk-${i}`, payload: { blob: "x".repeat(BLOB) } });
      }),
    ).toBe(false);
  });

  // One page's 1 MB text stored k times: k - 1 superseded versions (garbage) against one live one.
  const versionsOver = Math.ceil(COMPACT_WHILE_RUNNING.slackBytes / BLOB) + 1; // garbage past live + slack: 6 versions over 1 live
  it.each([
    { times: versionsOver, rewritten: false },
    { times: versionsOver + 1, rewritten: true },
  ])("one page's 1 MB text stored $times times over a small state: rewritten $rewritten", async ({ times, rewritten }) => {
    expect(
      await rewrittenAfter((state) => {
        const page = state.pages.create({});
        for (let i = 0; i < times; i++) state.pages.update(page.id, { supplementaryContext: String(i % 10).repeat(BLOB) });
      }),
    ).toBe(rewritten);
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
