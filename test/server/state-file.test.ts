/**
 * The state file (`startMockServer`'s `stateFile`, the CLI's `--state`), in process: the whole
 * state survives a restart, from the compacted file and from a journal a crash left behind; a file
 * that is not a valid state is refused and left untouched; one server per file.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { MockApi } from "../../mock/core.js";
import { type MockServer, type MockServerOptions, StateFileError, startMockServer } from "../../mock/server/index.js";
import { FORMAT_LINE } from "../../mock/server/state-file/read.js";
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

/** A state file with `lines` after its format line. */
function stateFileWith(...lines: string[]): string {
  const path = newPath();
  writeFileSync(path, `${[FORMAT_LINE, ...lines].join("\n")}\n`);
  return path;
}

/** A valid state line, taken from a server that just started on a fresh file. */
async function validStateLine(): Promise<string> {
  const path = newPath();
  await stop(await start(path));
  return readFileSync(path, "utf8").split("\n")[1]!;
}

describe("a file that is not a valid state stops the start, names the problem and is left untouched", () => {
  it.each([
    ["not a state file", () => `${JSON.stringify({ pages: [] })}\n`, /not a prospectkit-mock state file/],
    ["another format version", () => `${JSON.stringify({ format: "prospectkit-mock-state", version: 99 })}\n{}\n`, /format version 99/],
    ["a state line that is not JSON", (line: string) => `${FORMAT_LINE}\n${line.slice(0, -5)}\n`, /line 2 is not valid JSON/],
    [
      "a record that fails validation",
      (line: string) => `${FORMAT_LINE}\n${line.replace(/"secretsIssued":\d+/, '"secretsIssued":-1')}\n`,
      /line 2 holds an invalid state: \/secretsIssued/,
    ],
    [
      "a journal line that is not a change",
      (line: string) => `${FORMAT_LINE}\n${line}\n{"op":"mystery"}\n{"op":"reset"}\n`,
      /line 3 is not a valid change/,
    ],
    [
      "a change to a tenant that does not exist",
      (line: string) => `${FORMAT_LINE}\n${line}\n${JSON.stringify({ op: "delete", in: "pages", tenantId: "tenant_nope", id: "p" })}\n`,
      /line 3 is not a valid change: .*tenant_nope/,
    ],
    [
      "changes that end in a dangling reference",
      (line: string) => {
        const tenantId = (JSON.parse(line) as { tenants: { tenant: { id: string } }[] }).tenants[0]!.tenant.id;
        const version = {
          id: "v",
          tenantId,
          pageId: "page_nope",
          versionNumber: 1,
          createdAt: "2024-01-01T00:00:00.000Z",
          status: "created",
          computedName: null,
          processedAt: null,
          publishedAt: null,
        };
        return `${FORMAT_LINE}\n${line}\n${JSON.stringify({ op: "put", in: "pageVersions", tenantId, value: version })}\n`;
      },
      /its changes end in an invalid state: \/tenants\/0\/pageVersions\/0\/pageId/,
    ],
  ])("%s", async (_name, content, message) => {
    const path = newPath();
    const text = content(await validStateLine());
    writeFileSync(path, text);
    const error = await startMockServer(options(path)).then(
      (server) => (running.add(server), undefined),
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).not.toContain("\n");
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("a line that is not JSON is named without quoting it (it may hold an API key or a secret)", async () => {
    const path = stateFileWith(`{"apiKeys":[["secret_key_value", oops`);
    const error = await startMockServer(options(path)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toMatch(/line 2 is not valid JSON( \(at character \d+\))?; the file is left as it is$/);
    expect((error as Error).message).not.toContain("secret_key_value");
  });

  it("a last line cut short (a write the server died in) is left out, not refused", async () => {
    const path = stateFileWith(await validStateLine());
    writeFileSync(path, `${readFileSync(path, "utf8")}{"op":"tenant","val`, { flag: "w" });
    const server = await start(path);
    expect(server.api.state.tenants.list()).toHaveLength(1);
    server.api.state.pages.create({ id: "page_after" }); // appended after the rewrite, not to the cut line
    await new Promise((done) => setImmediate(done));
    const copy = newPath();
    copyFileSync(path, copy);
    expect((await start(copy)).api.state.pages.get("page_after")).toBeDefined();
  });

  it("an empty file is a fresh one", async () => {
    const path = newPath();
    writeFileSync(path, "");
    const server = await start(path);
    expect(server.api.state.tenants.list()).toHaveLength(1);
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

  it("a lock left by a process that is gone (a crash) is taken over", async () => {
    const path = newPath();
    writeFileSync(`${path}.lock`, "999999999\n");
    await start(path);
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
