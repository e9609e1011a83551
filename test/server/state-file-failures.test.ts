/**
 * The state file never acknowledges a write it has not kept. A write failure is injected at each
 * site where the server writes its file (through the file system seam: the disk fills up), and
 * every time: the request that needed the write is answered 503 `state_not_persisted` (with
 * `Retry-After`, naming the file, never the key); nothing of it stays in memory; reads go on;
 * the file, as a crash would leave it at that moment, loads with every acknowledged write; once
 * space returns, the client's retry is applied exactly once, and the server says both turns once.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MockChange } from "../../mock/observe/changes.js";
import { type MockServer, type MockServerOptions, startMockServer } from "../../mock/server/index.js";
import { undescribedAnswers } from "./support/control-answers.js";
import { createDisk, type FullAt, type FullOptions } from "./support/disk.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-failures-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const newPath = () => join(dir, `state-${++count}.jsonl`);

const KEY = "failures_key_do_not_print";
let disk: ReturnType<typeof createDisk>;
const running = new Set<MockServer>();
beforeEach(() => {
  disk = createDisk();
});
afterEach(async () => {
  disk.restore();
  for (const server of running) await server.close();
  running.clear();
});

async function start(stateFile: string, extra: MockServerOptions = {}): Promise<MockServer> {
  const server = await startMockServer({ port: 0, apiKeys: [KEY], seed: 3, stateFile, webhooks: { deliver: false }, ...extra });
  running.add(server);
  return server;
}

async function stop(server: MockServer): Promise<void> {
  running.delete(server);
  await server.close();
}

const post = (server: MockServer, body: Record<string, unknown>) =>
  fetch(`${server.url}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify({ payload: {}, ...body }),
  });

const logSources = (server: MockServer) => server.api.state.prospectLogs.list().map((log) => log.source);

/** What a restart on `path` holds: the sources of its logs (the file copied first: a crash leaves it so). */
async function sourcesAfterRestart(path: string, copy = true): Promise<string[]> {
  const from = copy ? join(dir, `copy-${++count}.jsonl`) : path;
  if (copy) copyFileSync(path, from);
  const restarted = await start(from);
  const sources = logSources(restarted);
  await stop(restarted);
  return sources;
}

/** Fills the journal to just under the size at which it is compacted (4 MiB of records over an empty state). */
function growJournalNearCompaction(server: MockServer): void {
  for (let i = 0; i < 4; i++) server.api.state.prospectLogs.create({ source: `bulk-${i}`, payload: { blob: "x".repeat(1_000_000) } });
}

const SITES: readonly { site: string; at: FullAt; options?: FullOptions; prepare?: (server: MockServer) => void; payload?: object }[] = [
  { site: "the first append after the start", at: "append" },
  { site: "mid-journal, the append torn half-way", at: "append", options: { torn: true }, prepare: () => {} },
  { site: "mid-journal, torn, and cutting it back fails until space returns", at: "append", options: { torn: true, cutBackFails: true } },
  {
    site: "during a compaction (the journal outgrew the state)",
    at: "compaction",
    prepare: growJournalNearCompaction,
    payload: { blob: "y".repeat(400_000) },
  },
];

describe.each(SITES)("a write that fails $site", ({ at, options, prepare, payload = {} }) => {
  it("is refused with 503, undone, keeps reads going, leaves a loadable file, and the retry after space returns applies once", async () => {
    const path = newPath();
    disk.on(path);
    const notices: string[] = [];
    const server = await start(path, { onStateFileNotice: (message) => notices.push(message) });
    const tenantId = server.api.state.defaultTenantId!;
    const feed: MockChange[] = [];
    server.api.changes.subscribe(tenantId, (change) => feed.push(change));
    if (prepare !== undefined) {
      expect((await post(server, { source: "acknowledged-1" })).status).toBe(201);
      expect((await post(server, { source: "acknowledged-2" })).status).toBe(201);
      prepare(server);
      await new Promise((done) => setImmediate(done));
    }
    const acknowledged = logSources(server);
    const before = server.api.state.snapshot();

    disk.fillAt(at, options);
    const body = { source: "refused", email: "retry@example.com", idempotencyKey: "retry-me", payload };
    const refused = await post(server, body);
    expect(disk.full).toBe(true); // the failure met this request's write, at this site
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    const problem = (await refused.json()) as { code: string; detail: string };
    expect(problem.code).toBe("state_not_persisted");
    expect(problem.detail).toContain(path);
    expect(problem.detail).toContain("ENOSPC");
    expect(JSON.stringify(problem)).not.toContain(KEY);
    // Nothing of it in memory: no prospect, no log, no idempotency key.
    expect(server.api.state.snapshot()).toBe(before);
    // Reads go on; writes are refused without running while the disk is full.
    const read = await fetch(`${server.url}/__mock/prospect_logs`, { headers: { "x-api-key": KEY } });
    expect(read.status).toBe(200);
    expect((await post(server, { source: "also-refused" })).status).toBe(503);
    expect(server.api.state.snapshot()).toBe(before);
    // The file as a crash would leave it now: every acknowledged write, nothing refused.
    expect(await sourcesAfterRestart(path)).toEqual(acknowledged);

    disk.free();
    const retried = await post(server, body);
    expect(retried.status).toBe(201);
    const replayed = await post(server, body);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(logSources(server).filter((source) => source === "refused")).toHaveLength(1);

    expect(notices.filter((line) => /cannot write it \(ENOSPC/.test(line))).toHaveLength(1);
    expect(notices.filter((line) => /: written again: /.test(line))).toHaveLength(1);
    expect(notices.join("\n")).not.toContain(KEY);
    const turns = feed.flatMap((change) => (change.kind === "state-file" ? [change.writable] : []));
    expect(turns).toEqual([false, true]);

    expect(await sourcesAfterRestart(path)).toEqual([...acknowledged, "refused"]);
    await stop(server);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(await sourcesAfterRestart(path, false)).toEqual([...acknowledged, "refused"]);
  });
});

describe("a write that fails during the stop (its compaction)", () => {
  it("leaves the previous file whole and no temporary file; the restart has every acknowledged write", async () => {
    const path = newPath();
    disk.on(path);
    const notices: string[] = [];
    const server = await start(path, { onStateFileNotice: (message) => notices.push(message) });
    for (const source of ["a", "b", "c"]) expect((await post(server, { source })).status).toBe(201);
    const journal = readFileSync(path, "utf8");
    disk.fillAt("compaction");
    await stop(server);
    expect(disk.full).toBe(true);
    expect(notices).toEqual([expect.stringMatching(/cannot compact it at the stop \(ENOSPC.*nothing is lost$/)]);
    expect(existsSync(`${path}.tmp`)).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(journal);
    disk.free();
    expect(await sourcesAfterRestart(path, false)).toEqual(["a", "b", "c"]);
  });
});

describe("a torn append is cut back before anything else is written", () => {
  it("when the cut-back fails, the fragment is the file's last bytes until the next write removes it first", async () => {
    const path = newPath();
    disk.on(path);
    const server = await start(path);
    expect((await post(server, { source: "whole" })).status).toBe(201);
    disk.fillAt("append", { torn: true, cutBackFails: true });
    expect((await post(server, { source: "torn" })).status).toBe(503);
    const torn = readFileSync(path, "utf8");
    expect(torn.endsWith("\n")).toBe(false); // a fragment at the end, and nothing after it
    disk.free();
    expect((await post(server, { source: "after" })).status).toBe(201);
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines.pop()).toBe("");
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(await sourcesAfterRestart(path)).toEqual(["whole", "after"]);
  });
});

describe("in process, through api.fetch", () => {
  it("a write the file cannot keep is refused with 503 and undone, as over HTTP", async () => {
    const path = newPath();
    disk.on(path);
    const server = await start(path, { onStateFileNotice: () => {} });
    const before = server.api.state.snapshot();
    disk.fillAt("append");
    const refused = await server.api.fetch(`${server.url}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ source: "in-process", payload: {} }),
    });
    expect(refused.status).toBe(503);
    expect(server.api.state.snapshot()).toBe(before);
  });
});

describe("a control write the file cannot keep", () => {
  it("is answered 503 state_not_persisted, as the control document says, and undone: no tenant made, none deleted, no reset", async () => {
    const path = newPath();
    disk.on(path);
    const server = await start(path, { onStateFileNotice: () => {} });
    const send = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { "x-api-key": KEY, ...(body !== undefined && { "content-type": "application/json" }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      return { method, path, status: response.status, contentType: response.headers.get("content-type"), text: await response.text() };
    };
    const made = JSON.parse((await send("POST", "/__mock/tenants")).text) as { tenantId: string; apiKey: string };
    expect((await post(server, { source: "kept" })).status).toBe(201);
    const before = server.api.state.snapshot();

    disk.fillAt("append");
    const answers = [
      await send("POST", "/__mock/tenants"), // runs, its append fails: undone
      await send("DELETE", `/__mock/tenants/${made.tenantId}`), // refused before it runs while the file cannot be written
      await send("POST", "/__mock/reset"),
    ];
    expect(answers.map(({ status, text }) => [status, (JSON.parse(text) as { code: string }).code])).toEqual(
      answers.map(() => [503, "state_not_persisted"]),
    );
    expect(undescribedAnswers(answers)).toEqual({ problems: [], checked: answers.length });
    expect(server.api.state.snapshot()).toBe(before);
    expect(server.api.state.tenants.list().map(({ id }) => id)).toContain(made.tenantId);

    disk.free();
    expect((await send("DELETE", `/__mock/tenants/${made.tenantId}`)).status).toBe(200);
    await stop(server);
    const restarted = await start(path);
    expect(restarted.api.state.tenants.get(made.tenantId)).toBeUndefined();
    expect(logSources(restarted)).toEqual(["kept"]);
  });
});
