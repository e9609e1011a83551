/**
 * A write that a full disk cuts short leaves nothing behind: the file is cut back to its last
 * complete line at once, whichever write it was (a request's append, or the write a later request
 * tries first to learn whether the file can be written again). The disk here has a few bytes left
 * (through the file system seam): every write to the state file writes what fits, then fails with
 * `ENOSPC`, as a real full disk does.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { stateFs } from "../../mock/server/state-file/fs.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-cut-back-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

const KEY = "cut_back_key";
const original = { ...stateFs };
let server: MockServer | undefined;
afterEach(async () => {
  Object.assign(stateFs, original);
  await server?.close();
  server = undefined;
});

/** A disk on which the state file may grow by `room` bytes more (from when it fills), no further. */
function fillingDisk(path: string) {
  const files = new Set<number>();
  let limit: number | null = null;
  stateFs.openSync = ((file, flags, mode) => {
    const fd = original.openSync(file, flags, mode);
    if (String(file) === path) files.add(fd);
    return fd;
  }) as typeof stateFs.openSync;
  stateFs.closeSync = (fd) => {
    files.delete(fd);
    original.closeSync(fd);
  };
  stateFs.writeSync = (fd, buffer, offset, length) => {
    if (limit === null || !files.has(fd)) return original.writeSync(fd, buffer, offset, length);
    const left = limit - original.fstatSync(fd).size;
    if (left <= 0) throw Object.assign(new Error("ENOSPC: simulated by the test"), { code: "ENOSPC" });
    return original.writeSync(fd, buffer, offset, Math.min(length, left));
  };
  return {
    fill(room: number) {
      limit = readFileSync(path).length + room;
    },
    free() {
      limit = null;
    },
  };
}

const post = (source: string) =>
  fetch(`${server!.url}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify({ source, payload: { note: "x".repeat(200) } }),
  }).then(async (response) => ({ status: response.status, code: ((await response.json()) as { code?: string }).code }));

describe("a write cut short by a full disk leaves the file as it was", () => {
  const WRITES: readonly { write: string; refused: number }[] = [
    { write: "the request's own append", refused: 1 },
    { write: "the write a later request tries first (the file is still full)", refused: 2 },
    { write: "every write of a long outage", refused: 5 },
  ];

  it.each(WRITES)("$write: the file's bytes after it are the bytes before", async ({ refused }) => {
    const path = join(dir, `state-${++count}.jsonl`);
    const disk = fillingDisk(path);
    server = await startMockServer({ port: 0, apiKeys: [KEY], seed: 9, stateFile: path, webhooks: { deliver: false }, onStateFileNotice: () => {} });
    expect((await post("kept")).status).toBe(201);
    const before = readFileSync(path);

    disk.fill(100); // less than one line: every write is cut short
    for (let i = 0; i < refused; i++) {
      expect(await post(`refused-${i}`)).toEqual({ status: 503, code: "state_not_persisted" });
      expect(readFileSync(path).equals(before)).toBe(true);
    }

    disk.free();
    expect((await post("after")).status).toBe(201);
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines.at(-1)).toBe("");
    for (const line of lines.slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
    expect(server.api.state.prospectLogs.list().map(({ source }) => source)).toEqual(["kept", "after"]);
  });
});
