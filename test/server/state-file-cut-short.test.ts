/**
 * A state written whole (a compaction's, headed by `{"op":"state","records":M}`) holds every
 * record its header counts. One that holds fewer, cut at a record's end or in the middle of one
 * (a copy or a backup cut short: the server renames a compaction into place only once it is
 * whole), is refused at start: the error names the file, the line where the records stop and
 * "N of M records", and the file is left byte for byte as it was (no lock, no temporary file, no
 * rewrite). Only a torn line of the journal after it is a write the server died in: that one is
 * still dropped, and the file loads.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type MockServer, StateFileError, startMockServer } from "../../mock/server/index.js";
import { startServer } from "../../mock/server/start.js";
import { FORMAT_LINE } from "../../mock/state/persist/decode.js";
import { stateRecords } from "../../mock/state/persist/records.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-cut-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const newPath = () => join(dir, `state-${++count}.jsonl`);

const KEY = "cut_short_key";
const running = new Set<MockServer>();
afterEach(async () => {
  for (const server of running) await server.close();
  running.clear();
});

const start = (stateFile: string) => startMockServer({ port: 0, apiKeys: [KEY], seed: 5, stateFile, webhooks: { deliver: false } });

/** A state of three logs (and the pages, versions and subscription around them) as the lines of a compacted file: format line, header, records. */
async function compactedLines(): Promise<string[]> {
  const { server, mock } = await startServer({ port: 0, apiKeys: [KEY], seed: 5, webhooks: { deliver: false } });
  running.add(server);
  const { state } = server.api;
  for (const source of ["crm", "web", "import"]) state.prospectLogs.create({ source, payload: {}, email: `${source}@example.com` });
  const page = state.pages.create({ customName: "Pricing" });
  const version = state.pageVersions.create({ pageId: page.id });
  state.pageVersions.process(version.id, { computedName: "Prices" });
  state.pageVersions.publish(version.id);
  state.webhookSubscriptions.create({ url: "http://127.0.0.1:9/hook" });
  return [FORMAT_LINE, ...[...stateRecords(mock.save())].map((record) => JSON.stringify(record))];
}

describe("a state written whole must hold every record its header counts", () => {
  /** How to cut the file: its text from the compacted lines (index 0: the format line, 1: the header, 2…: records). */
  const CUTS: readonly { cut: string; text: (lines: readonly string[]) => string; whole: number }[] = [
    { cut: "at a record's end: only 10 whole records follow the header", text: (lines) => `${lines.slice(0, 12).join("\n")}\n`, whole: 10 },
    {
      cut: "in the middle of a record, with no final newline",
      text: (lines) => `${lines.slice(0, 12).join("\n")}\n${lines[12]!.slice(0, Math.floor(lines[12]!.length / 2))}`,
      whole: 10,
    },
    { cut: "right after the header", text: (lines) => `${lines.slice(0, 2).join("\n")}\n`, whole: 0 },
    { cut: "only the last record missing", text: (lines) => `${lines.slice(0, -1).join("\n")}\n`, whole: -1 },
  ];

  it.each(CUTS)("cut $cut: refused, naming the file, the line and N of M records; the file is left byte for byte", async ({ text, whole }) => {
    const lines = await compactedLines();
    const total = (JSON.parse(lines[1]!) as { op: string; records: number }).records;
    expect(total).toBe(lines.length - 2);
    expect(total).toBeGreaterThan(12);
    const kept = whole < 0 ? total + whole : whole;
    const path = newPath();
    writeFileSync(path, text(lines));
    const before = readFileSync(path);

    const refusal = await start(path).then(
      (server) => (running.add(server), undefined),
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(StateFileError);
    const message = (refusal as StateFileError).message;
    expect(message).toContain(`state file ${path}: line ${kept + 3}:`);
    expect(message).toContain(`${kept} of ${total} records`);
    expect(message).toContain("the file is left as it is");
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir).filter((name) => name.startsWith(basename(path)))).toEqual([basename(path)]);
  });

  /** A whole state, then the journal: a torn last line there is a write the server died in. */
  const JOURNALS: readonly { journal: string; tail: (line: string) => string; logs: number }[] = [
    { journal: "a torn journal line after the whole state", tail: (line) => line.slice(0, 20), logs: 3 },
    { journal: "a whole journal line, then a torn one", tail: (line) => `${line}\n${line.slice(0, 20)}`, logs: 4 },
  ];

  it.each(JOURNALS)("$journal: loads, the torn line dropped", async ({ tail, logs }) => {
    const lines = await compactedLines();
    const tenantId = (JSON.parse(lines.find((line) => line.startsWith('{"op":"tenant"'))!) as { value: { id: string } }).value.id;
    const log = JSON.parse(lines.find((line) => line.includes('"in":"prospectLogs"'))!) as { value: Record<string, unknown> };
    const journalLine = JSON.stringify({
      ...log,
      tenantId,
      value: { ...log.value, id: "prospectlog_01journal00000000000000000", source: "journal" },
    });
    const path = newPath();
    writeFileSync(path, `${lines.join("\n")}\n${tail(journalLine)}`);

    const server = await start(path);
    running.add(server);

    expect(server.api.state.prospectLogs.list()).toHaveLength(logs);
  });
});
