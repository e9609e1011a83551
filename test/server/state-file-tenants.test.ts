/**
 * The state file (issue 31) keeps what each tenant owns as its own (issue 32), across a restart
 * from the journal a crash leaves and from the file a compaction writes (format 2):
 * - a webhook failure run belongs to its tenant: two tenants holding the same subscription ID,
 *   one failing, come back with the run on the failing one only, and its 5-day deactivation
 *   reaches that one only;
 * - a deleted tenant stays deleted, a tenant made by `POST /__mock/tenants` stays one (its key
 *   never resets the server), a start key stays a start key.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { MockHost } from "../../mock/create-mock-api.js";
import type { MockServer, MockServerOptions } from "../../mock/server/index.js";
import { startServer } from "../../mock/server/start.js";
import { FORMAT_LINE } from "../../mock/state/persist/decode.js";
import { WEBHOOK_DEACTIVATE_AFTER_MS } from "../../mock/webhooks/index.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-tenants-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const newPath = () => join(dir, `state-${++count}.jsonl`);

const HOUR = 3_600_000;
const T0 = Date.parse("2024-02-29T12:00:00.000Z");
const KEYS = { key_a: "tenant_a", key_b: "tenant_b" } as const;
/** The same subscription ID in both tenants, as a demo subscription or a shared fixture gives them. */
const SHARED_ID = "webhooksubscription_shared";

const running = new Set<MockServer>();
afterEach(async () => {
  for (const server of running) await server.close();
  running.clear();
});

/** A clock the test moves, and the receivers (by host) that answer 503. */
const world = { now: T0, failing: new Set<string>() };

/** The mock of each server started here: its whole saved state, keys and webhook books included, is read from it. */
const mocks = new Map<MockServer, MockHost>();
const savedOf = (server: MockServer) => mocks.get(server)!.save();

async function start(stateFile: string | undefined, extra: MockServerOptions = {}): Promise<MockServer> {
  const { server, mock } = await startServer({
    port: 0,
    apiKeys: KEYS,
    seed: 5,
    now: () => world.now,
    ...(stateFile !== undefined && { stateFile }),
    webhooks: {
      deliver: false,
      fetch: async (request) => new Response(null, { status: world.failing.has(new URL(request.url).host) ? 503 : 204 }),
    },
    ...extra,
  });
  mocks.set(server, mock);
  running.add(server);
  return server;
}

async function stop(server: MockServer): Promise<void> {
  running.delete(server);
  await server.close();
}

const call = (server: MockServer, method: string, path: string, key: string) =>
  fetch(`${server.url}${path}`, { method, headers: { "x-api-key": key } });

const failingSince = (server: MockServer) => savedOf(server).webhooks.failingSince;
const activeOf = (server: MockServer, tenantId: string) => server.api.state.webhookSubscriptions.get(SHARED_ID, { tenantId })?.active;

/** Both tenants get a subscription with the same ID; one event each, attempted once at T0: tenant A's receiver fails, B's succeeds. */
async function failOnA(server: MockServer): Promise<void> {
  world.now = T0;
  world.failing = new Set(["tenant_a.example"]);
  for (const tenantId of Object.values(KEYS)) {
    server.api.state.webhookSubscriptions.create({ id: SHARED_ID, url: `https://${tenantId}.example/hook`, tenantId });
    server.api.state.forms.emit({ kind: "form.submitted", data: { tenantId }, tenantId });
  }
  await server.api.webhooks.runDue();
}

/** The records of a file (its lines after the format line). */
const recordsOf = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .slice(1, -1)
    .map((line) => JSON.parse(line) as Record<string, any>);

describe("a failure run is its tenant's own across a restart (format 2)", () => {
  it("two tenants with the same subscription ID, one failing: the run comes back on that tenant only, and deactivates that tenant's subscription only", async () => {
    const path = newPath();
    const first = await start(path);
    await failOnA(first);
    expect(failingSince(first)).toEqual([["tenant_a", SHARED_ID, T0]]);
    await new Promise((done) => setImmediate(done));
    const journal = newPath();
    copyFileSync(path, journal); // as a crash leaves it
    await stop(first); // compacted
    const lines = readFileSync(path, "utf8").split("\n");
    expect(lines[0]).toBe(FORMAT_LINE);
    expect(recordsOf(path)[0]).toMatchObject({ op: "state" });
    expect(recordsOf(path).filter((record) => record.op === "webhooks" && record.change.kind === "failing")).toEqual([
      { op: "webhooks", change: { kind: "failing", tenantId: "tenant_a", subscriptionId: SHARED_ID, since: T0 } },
    ]);

    for (const file of [journal, path]) {
      world.now = T0 + HOUR;
      const restarted = await start(file);
      expect(failingSince(restarted)).toEqual([["tenant_a", SHARED_ID, T0]]);
      // Five days on, both receivers fail: A's run began at T0 (deactivated at once), B's begins now (still active).
      world.now = T0 + WEBHOOK_DEACTIVATE_AFTER_MS + HOUR;
      world.failing = new Set(["tenant_a.example", "tenant_b.example"]);
      restarted.api.state.forms.emit({ kind: "form.submitted", data: {}, tenantId: "tenant_b" });
      await restarted.api.webhooks.runDue();
      expect({ a: activeOf(restarted, "tenant_a"), b: activeOf(restarted, "tenant_b") }).toEqual({ a: false, b: true });
      expect(failingSince(restarted)).toEqual([["tenant_b", SHARED_ID, world.now]]);
      await stop(restarted);
    }
  });
});

describe("tenants made for one test keep what they are across restarts and compactions", () => {
  it("a deleted tenant stays deleted, a made key never resets the server, a start key still may (from the journal, the stop's compaction, and again)", async () => {
    const path = newPath();
    const first = await start(path, { maxTenants: 3 });
    const made = async () => (await (await call(first, "POST", "/__mock/tenants", "key_a")).json()) as { tenantId: string; apiKey: string };
    const gone = await made();
    const kept = await made();
    expect((await call(first, "DELETE", `/__mock/tenants/${gone.tenantId}`, gone.apiKey)).status).toBe(200);
    await new Promise((done) => setImmediate(done));
    const journal = newPath();
    copyFileSync(path, journal);
    await stop(first);
    // The compacted file holds the kept tenant as one made for one test, and nothing of the deleted one.
    const tenants = recordsOf(path).filter((record) => record.op === "tenant");
    expect(tenants.map((record) => record.value)).toEqual([
      { id: "tenant_a", createdAt: expect.any(String) },
      { id: "tenant_b", createdAt: expect.any(String) },
      { id: kept.tenantId, createdAt: expect.any(String), isolated: true },
    ]);
    expect(readFileSync(path, "utf8")).not.toContain(gone.tenantId);

    const check = async (file: string) => {
      const restarted = await start(file, { maxTenants: 3 });
      expect(restarted.api.state.tenants.get(gone.tenantId)).toBeUndefined();
      expect((await call(restarted, "GET", "/__mock/tenant", gone.apiKey)).status).toBe(401);
      expect(((await (await call(restarted, "GET", "/__mock/tenant", kept.apiKey)).json()) as { isolated: boolean }).isolated).toBe(true);
      expect(((await (await call(restarted, "GET", "/__mock/tenant", "key_a")).json()) as { isolated: boolean }).isolated).toBe(false);
      const refused = await call(restarted, "POST", "/__mock/reset?scope=server", kept.apiKey);
      expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([403, "start_key_required"]);
      expect((await call(restarted, "DELETE", "/__mock/tenants/tenant_a", kept.apiKey)).status).toBe(404);
      expect(restarted.api.state.tenants.get(kept.tenantId)).toEqual({ id: kept.tenantId, createdAt: expect.any(String), isolated: true });
      return restarted;
    };
    await stop(await check(journal));
    await stop(await check(path));
    // Compacted again by that stop: the same once more; then the start key ends the kept tenant and may reset the server.
    const again = await check(path);
    expect((await call(again, "DELETE", `/__mock/tenants/${kept.tenantId}`, "key_b")).status).toBe(200);
    await stop(again);
    const last = await start(path, { maxTenants: 3 });
    expect(last.api.state.tenants.list().map(({ id }) => id)).toEqual(["tenant_a", "tenant_b"]);
    expect((await call(last, "POST", "/__mock/reset?scope=server", "key_b")).status).toBe(200);
  });
});
