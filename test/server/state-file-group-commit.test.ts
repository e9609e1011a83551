/**
 * How the state file writes (issue 44): group commits. Every request settled in one turn of the
 * event loop shares one append, and each answer still leaves only after its own lines are in the
 * file. Appends are counted through the state file's fs seam (`stateFs`); when the file is
 * compacted (on garbage) is state-file-compaction.test.ts's.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { stateFs } from "../../mock/server/state-file/fs.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-group-commit-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const KEY = "group_commit_key";
const original = { ...stateFs };
const running = new Set<MockServer>();
afterEach(async () => {
  Object.assign(stateFs, original);
  for (const server of running) await server.close();
  running.clear();
});

async function start(): Promise<{ server: MockServer; path: string }> {
  const path = join(dir, `state-${++count}.jsonl`);
  const server = await startMockServer({ port: 0, apiKeys: [KEY], seed: 5, stateFile: path, webhooks: { deliver: false } });
  running.add(server);
  await new Promise((done) => setImmediate(done));
  return { server, path };
}

/**
 * Counts, through the seam, the compactions (a temporary file opened) and the appends (every
 * other write: nothing else of the state file is written while a test runs).
 */
function countWrites(path: string) {
  const counts = { appends: 0, compactions: 0 };
  const temporary = new Set<number>();
  stateFs.openSync = ((file: string, flags: string, mode?: number) => {
    const fd = original.openSync(file, flags, mode);
    if (file === `${path}.tmp`) {
      counts.compactions += 1;
      temporary.add(fd);
    }
    return fd;
  }) as typeof stateFs.openSync;
  stateFs.writeSync = ((fd: number, ...rest: unknown[]) => {
    if (!temporary.has(fd)) counts.appends += 1;
    return (original.writeSync as (...args: unknown[]) => number)(fd, ...rest);
  }) as typeof stateFs.writeSync;
  return counts;
}

const post = (server: MockServer, source: string, payload: object = {}) =>
  server.api.fetch(
    new Request("http://mock.local/v0/prospect_logs", {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ source, payload }),
    }),
  );

describe("group commit: one append per turn of the event loop", () => {
  it("20 requests settled in one turn share one append, and each answer leaves only once its log is in the file", async () => {
    const { server, path } = await start();
    const counts = countWrites(path);
    const seenInFile: boolean[] = [];
    // Each request from its own callback of one check phase (each runs to its end, its microtasks
    // included, before the next), as requests on 20 sockets come in one poll phase.
    const started = (i: number) => new Promise<Response>((resolve) => setImmediate(() => resolve(post(server, `group-${i}`))));
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        started(i).then(async (response) => {
          const { prospectLogId: id } = (await response.clone().json()) as { prospectLogId: string };
          seenInFile.push(readFileSync(path, "utf8").includes(id));
          return response.status;
        }),
      ),
    );
    expect(answers).toEqual(Array(20).fill(201));
    expect(seenInFile).toEqual(Array(20).fill(true));
    expect(counts.appends).toBe(1);
  });
});
