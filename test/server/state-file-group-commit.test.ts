/**
 * How the state file writes (issue 44): group commits, and compaction on garbage.
 * - Every request settled in one turn of the event loop shares one append, and each answer still
 *   leaves only after its own lines are in the file.
 * - The file is compacted when its garbage (lines later ones supersede) outweighs the rest by
 *   4 MiB, not when the journal is long: a file that only grows is never rewritten for nothing.
 * Appends and compactions are counted through the state file's fs seam (`stateFs`).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
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

describe("compaction on garbage", () => {
  it("a file that only grows (5 MB of new logs) is never compacted", async () => {
    const { server, path } = await start();
    const counts = countWrites(path);
    for (let i = 0; i < 5; i++) {
      expect((await post(server, `grow-${i}`, { blob: "x".repeat(1_000_000) })).status).toBe(201);
    }
    expect(counts.compactions).toBe(0);
    expect(statSync(path).size).toBeGreaterThan(5_000_000);
  });

  it("a file that is mostly old versions of one record is compacted at the next write, down to what is live", async () => {
    const { server, path } = await start();
    const counts = countWrites(path);
    const page = server.api.state.pages.create({});
    for (let i = 0; i < 7; i++) {
      server.api.state.pages.update(page.id, { supplementaryContext: String(i).repeat(1_000_000) });
      await new Promise((done) => setImmediate(done));
    }
    expect(counts.compactions).toBe(0); // 6 MB of garbage, 1 MB live: not yet 4 MiB past it until the 7th is written
    expect((await post(server, "after")).status).toBe(201);
    expect(counts.compactions).toBe(1);
    expect(statSync(path).size).toBeLessThan(1_100_000);
    expect(readFileSync(path, "utf8")).toContain("6".repeat(1_000_000));
  });
});
