/**
 * The state file (`startMockServer`'s `stateFile`, the CLI's `--state`), in process: the whole
 * state survives a restart, from the compacted file and from a journal a crash left behind; one
 * server per file, and a lock that no running prospectkit-mock holds is taken over.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { MockApi } from "../../mock/core.js";
import { type MockServer, type MockServerOptions, startMockServer } from "../../mock/server/index.js";
import { verifyWebhook } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const newPath = () => join(dir, `state-${++count}.jsonl`);

const running = new Set<MockServer>();
afterEach(async () => {
  for (const server of running) await server.close();
  running.clear();
});

const KEY = "state_key";
const OTHER_KEY = "other_key";
const options = (stateFile: string, extra: MockServerOptions = {}): MockServerOptions => ({
  port: 0,
  apiKeys: [KEY],
  seed: 7,
  stateFile,
  webhooks: { deliver: false },
  ...extra,
});

async function start(stateFile: string, extra?: MockServerOptions): Promise<MockServer> {
  const server = await startMockServer(options(stateFile, extra));
  running.add(server);
  return server;
}

async function stop(server: MockServer): Promise<void> {
  running.delete(server);
  await server.close();
}

/** Everything a restart must keep, as comparable values (secrets included). */
function everything(api: MockApi) {
  return {
    snapshot: api.state.snapshot(),
    subscriptions: api.state.tenants.list().map(({ id }) => api.state.webhookSubscriptions.list({ tenantId: id })),
    deliveries: api.webhooks.list(),
    events: api.webhooks.events(),
  };
}

const call = (server: MockServer, method: string, path: string, body?: unknown, key = KEY) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { "x-api-key": key, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/** Changes every kind of record, over HTTP and through `api.state`. */
async function changeEverything(server: MockServer): Promise<void> {
  const { state } = server.api;
  const other = state.tenants.create({ apiKeys: [OTHER_KEY] });
  const revoked = state.apiKeys.issue();
  state.apiKeys.revoke(revoked);
  const created = await call(server, "POST", "/v0/prospect_logs", {
    source: "crm",
    email: "Ada@example.com",
    payload: { a: 1 },
    idempotencyKey: "k1",
  });
  expect(created.status).toBe(201);
  await call(server, "POST", "/v0/prospect_logs", { source: "crm", phoneNumber: "+15555550100", name: "Ada", email: "ada@example.com", payload: {} });
  await call(server, "POST", "/v0/prospect_logs", { source: "other", payload: { nested: { deep: [1, 2] } } }, OTHER_KEY);
  const subscription = state.webhookSubscriptions.create({ url: "http://127.0.0.1:9/hook" });
  state.webhookSubscriptions.rotateSecret(subscription.id);
  const patched = await call(server, "PATCH", `/v0/webhook_subscriptions/${subscription.id}`, {
    events: ["page.version.published", "form.submitted"],
  });
  expect(patched.status).toBe(200);
  const page = state.pages.create({ customName: "Pricing" });
  state.pages.update(page.id, { supplementaryContext: "ctx" });
  const version = state.pageVersions.create({ pageId: page.id });
  state.pageVersions.process(version.id, { computedName: "Prices" });
  state.pageVersions.publish(version.id);
  state.pageVersions.create({ pageId: page.id });
  state.forms.emit({ kind: "form.submitted", data: { form: "f" } });
  state.webhookSubscriptions.create({ url: "http://127.0.0.1:9/other", tenantId: other.id });
}

describe("a state file keeps the whole state across a restart", () => {
  it("every resource kind, every tenant, keys, secrets and deliveries come back identical", async () => {
    const path = newPath();
    const first = await start(path);
    await changeEverything(first);
    const before = everything(first.api);
    await stop(first);

    const second = await start(path);
    expect(everything(second.api)).toEqual(before);
    const id = before.subscriptions[0]![0]!.id;
    expect((await call(second, "PATCH", `/v0/webhook_subscriptions/${id}`, { active: false })).status).toBe(200);
    expect((await call(second, "POST", "/v0/prospect_logs", { source: "x", payload: {} }, OTHER_KEY)).status).toBe(201);
  });

  it("a copy of the file taken while the server runs (state line plus journal, as a crash leaves it) restores the same state", async () => {
    const path = newPath();
    const first = await start(path);
    await changeEverything(first);
    const copy = newPath();
    copyFileSync(path, copy);
    expect(readFileSync(copy, "utf8").split("\n").length).toBeGreaterThan(3); // a journal after the state line
    const before = everything(first.api);
    const second = await start(copy);
    expect(everything(second.api)).toEqual(before);
  });

  it("a reset is kept: the restart shows the fixtures again, not what came before", async () => {
    const path = newPath();
    const fixtures = (state: MockApi["state"]) => void state.pages.create({ id: "page_seeded" });
    const first = await start(path, { fixtures });
    await changeEverything(first);
    first.api.reset();
    const after = everything(first.api);
    await new Promise((done) => setImmediate(done)); // the changes of the task are written at its end
    const copy = newPath();
    copyFileSync(path, copy);
    expect(everything((await start(copy, { fixtures })).api)).toEqual(after);
  });

  it("a tenant made for one test and a tenant's reset are kept, from the journal as a crash leaves it and after a stop", async () => {
    const path = newPath();
    const fixtures = (state: MockApi["state"]) => void state.pages.create({ id: "page_seeded" });
    const first = await start(path, { fixtures });
    await changeEverything(first);
    const made = await call(first, "POST", "/__mock/tenants");
    expect(made.status).toBe(201);
    const { apiKey } = (await made.json()) as { apiKey: string };
    expect((await call(first, "POST", "/v0/prospect_logs", { source: "isolated", payload: {} }, apiKey)).status).toBe(201);
    // The default tenant back to its fixtures (its logs, subscriptions, events and deliveries gone); the others keep theirs.
    expect((await call(first, "POST", "/__mock/reset")).status).toBe(200);
    const after = everything(first.api);
    expect(after.snapshot).toContain('"source":"isolated"');
    expect(after.deliveries.every((delivery) => delivery.tenantId !== first.api.state.tenants.list()[0]!.id)).toBe(true);
    await new Promise((done) => setImmediate(done)); // the changes of the task are written at its end
    const copy = newPath();
    copyFileSync(path, copy);
    const fromJournal = await start(copy, { fixtures });
    expect(everything(fromJournal.api)).toEqual(after);
    expect((await call(fromJournal, "GET", "/__mock/state", undefined, apiKey)).status).toBe(200);
    await stop(fromJournal);
    await stop(first);
    const restarted = await start(path, { fixtures });
    expect(everything(restarted.api)).toEqual(after);
    expect((await call(restarted, "POST", "/v0/prospect_logs", { source: "isolated", payload: {} }, apiKey)).status).toBe(201);
  });

  // Issue 32: a tenant's deletion reaches the journal (its keys revoked, then the tenant), and a tenant made for one test stays one.
  it("a deleted tenant stays deleted, from the journal as a crash leaves it and after a stop; a kept one is still a tenant made for one test", async () => {
    const path = newPath();
    const first = await start(path, { maxTenants: 2 });
    const made = async () => (await (await call(first, "POST", "/__mock/tenants")).json()) as { tenantId: string; apiKey: string };
    const gone = await made();
    const kept = await made();
    for (const { apiKey } of [gone, kept]) {
      expect((await call(first, "POST", "/v0/prospect_logs", { source: "isolated", payload: {} }, apiKey)).status).toBe(201);
      expect((await call(first, "POST", "/__mock/webhook_events", { kind: "form.submitted", data: {} }, apiKey)).status).toBe(201);
    }
    expect((await call(first, "DELETE", `/__mock/tenants/${gone.tenantId}`, undefined, gone.apiKey)).status).toBe(200);
    const after = everything(first.api);
    await new Promise((done) => setImmediate(done)); // the changes of the task are written at its end
    const copy = newPath();
    copyFileSync(path, copy);
    await stop(first);
    for (const file of [copy, path]) {
      const restarted = await start(file, { maxTenants: 2 });
      expect(everything(restarted.api)).toEqual(after);
      expect(restarted.api.state.tenants.get(gone.tenantId)).toBeUndefined();
      expect((await call(restarted, "GET", "/__mock/state", undefined, gone.apiKey)).status).toBe(401);
      expect((await call(restarted, "POST", "/__mock/reset?scope=server", undefined, kept.apiKey)).status).toBe(403);
      // One isolated tenant held of two: one more fits, then the limit.
      expect([(await call(restarted, "POST", "/__mock/tenants")).status, (await call(restarted, "POST", "/__mock/tenants")).status]).toEqual([
        201, 409,
      ]);
      await stop(restarted);
    }
  });

  it("fixtures seed a fresh file once; a restart keeps what requests changed instead", async () => {
    const path = newPath();
    let runs = 0;
    const fixtures = (state: MockApi["state"]) => {
      runs += 1;
      state.pages.create({ id: "page_seeded", customName: "Seeded" });
    };
    const first = await start(path, { fixtures });
    first.api.state.pages.update("page_seeded", { customName: "Renamed" });
    await stop(first);
    const second = await start(path, { fixtures });
    expect(second.api.state.pages.get("page_seeded")?.customName).toBe("Renamed");
    expect(runs).toBe(2); // run at each creation, then replaced by the file's state
  });

  it("new IDs and secrets after a restart never repeat stored ones (same seed, a clock that stands still)", async () => {
    const path = newPath();
    const now = () => new Date("2024-02-29T12:00:00.000Z");
    const first = await start(path, { now });
    const a = first.api.state.webhookSubscriptions.create({ url: "http://127.0.0.1:9/a" });
    const p = first.api.state.pages.create();
    await stop(first);
    const second = await start(path, { now });
    const b = second.api.state.webhookSubscriptions.create({ url: "http://127.0.0.1:9/b" });
    const q = second.api.state.pages.create();
    expect(b.id).not.toBe(a.id);
    expect(b.secret).not.toBe(a.secret);
    expect(q.id).not.toBe(p.id);
  });

  it("a key the server is started with is added to a restored state", async () => {
    const path = newPath();
    await stop(await start(path));
    const second = await start(path, { apiKeys: [KEY, "added_key"] });
    expect((await call(second, "POST", "/v0/prospect_logs", { source: "x", payload: {} }, "added_key")).status).toBe(201);
  });

  it("the file and its journal are readable by their owner only (0600)", async () => {
    if (process.platform === "win32") return;
    const path = newPath();
    const server = await start(path);
    server.api.state.pages.create();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    await stop(server);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("the request log is not kept", async () => {
    const path = newPath();
    const first = await start(path);
    await call(first, "POST", "/v0/prospect_logs", { source: "crm", payload: {} });
    expect(first.api.requests.list()).toHaveLength(1);
    await stop(first);
    expect((await start(path)).api.requests.list()).toEqual([]);
  });
});

describe("pending webhook deliveries resume after a restart, on their schedule", () => {
  it("a delivery pending at the stop is sent after the restart, signed with the subscription's secret", async () => {
    const received: { headers: Headers; body: string }[] = [];
    const receiver = await startMockServer({ port: 0, apiKeys: ["receiver"], webhooks: { deliver: false } });
    running.add(receiver);
    const path = newPath();
    const first = await start(path);
    const subscription = first.api.state.webhookSubscriptions.create({ url: `${receiver.url}/__mock/inbox/resumed` });
    first.api.state.forms.emit({ kind: "form.submitted", data: { form: "f" } });
    expect(first.api.webhooks.list()).toMatchObject([{ status: "pending", attempts: [] }]);
    await stop(first);

    const second = await start(path, {
      webhooks: {
        fetch: async (request) => {
          received.push({ headers: request.headers, body: await request.text() });
          return new Response(null, { status: 204 });
        },
      },
    });
    await expect.poll(() => received.length, { timeout: 5_000 }).toBe(1);
    const [delivery] = received;
    await expect(verifyWebhook({ secret: subscription.secret, headers: delivery!.headers, body: delivery!.body })).resolves.toMatchObject({
      type: "form.submitted",
    });
    await expect.poll(() => second.api.webhooks.list()[0]?.status).toBe("succeeded");
  });
});

describe("one server per state file", () => {
  it("a second server on the same file refuses to start; after the first stops, it starts", async () => {
    const path = newPath();
    const first = await start(path);
    await expect(startMockServer(options(path))).rejects.toThrow(/in use by another prospectkit-mock \(process \d+\)/);
    await stop(first);
    await start(path);
  });

  /** A process that runs for the test and is not a prospectkit-mock. */
  function otherProcess(): ChildProcess {
    const child = spawn("sleep", ["60"], { stdio: "ignore" });
    children.add(child);
    return child;
  }
  const children = new Set<ChildProcess>();
  afterEach(() => {
    for (const child of children) child.kill("SIGKILL");
    children.clear();
  });

  /** The ID of a process that has exited (and been reaped). */
  function exitedProcess(): number {
    const done = spawnSync("true");
    return done.pid!;
  }

  const STALE: readonly [string, (path: string) => string, RegExp][] = [
    ["a process that is gone (a crash)", () => "999999999\n", /its lock named process 999999999, which is gone \(.*\): taken over$/],
    [
      "a prospectkit-mock that was killed (its start time recorded)",
      () => `${JSON.stringify({ pid: exitedProcess(), started: "12345", token: "a-server-killed" })}\n`,
      /its lock named process \d+, which is gone \(it crashed or was killed\): taken over$/,
    ],
    ["nothing readable (cut short, edited)", () => '{"pid":', /its lock named no process \(.*\): taken over$/],
    [
      "this very process, not by a server of it (left by an earlier process with its ID, as in a restarted container)",
      () => `${JSON.stringify({ pid: process.pid, started: "0", token: "an-earlier-process" })}\n`,
      /its lock named this very process .*: taken over$/,
    ],
    [
      "a running process that is not a prospectkit-mock (its start time is not the one recorded)",
      () => `${JSON.stringify({ pid: otherProcess().pid, started: "1", token: "a-server-long-gone" })}\n`,
      /its lock named process \d+, which is running but is not a prospectkit-mock .*: taken over$/,
    ],
    [
      "a running process that is not a prospectkit-mock, in the lock of an older prospectkit (its ID alone)",
      () => `${otherProcess().pid}\n`,
      /its lock named process \d+, which is running but is not a prospectkit-mock .*: taken over$/,
    ],
  ];

  it.each(STALE)("a lock naming %s is taken over, and the notice says what it named", async (_name, lock, notice) => {
    const path = newPath();
    writeFileSync(`${path}.lock`, lock(path));
    const notices: string[] = [];
    await start(path, { onStateFileNotice: (message) => notices.push(message) });
    expect(readFileSync(`${path}.lock`, "utf8")).toMatch(new RegExp(`^(${process.pid}\\n|\\{"pid":${process.pid},)`));
    expect(notices).toEqual([expect.stringMatching(notice)]);
  });

  it("a lock naming this process that it does not hold is taken over: a container restarted after a crash, where the server is process 1 again", async () => {
    const path = newPath();
    writeFileSync(`${path}.lock`, `${process.pid}\n`);
    const first = await start(path);
    // While this process holds it, the same lock refuses a second server of this process.
    await expect(startMockServer(options(path))).rejects.toThrow(/in use by another prospectkit-mock/);
    await stop(first);
    await start(path);
  });
});
