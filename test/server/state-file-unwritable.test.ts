/**
 * While the state file cannot be written (the disk is full, through the file system seam), only
 * the requests that need it are refused (503 `state_not_persisted`). Every kind of request that
 * never writes to the file gets its usual answer: a read of the API or of the control API (GET
 * and HEAD), a document, the console, a CORS preflight, the inbox's receiver (its messages are
 * not kept), arming and clearing a fault (faults belong to the session, never to the file), and
 * whatever the handler refuses before a route runs (no key, no such path or method, a body that is
 * not JSON). A request to a route that may write is refused before it runs, even one its route
 * would then refuse (a body the operation finds invalid) or replay: that is known only by running it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { createDisk } from "./support/disk.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-unwritable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;

const KEY = "unwritable_key";
const PAGE = "/v0/page_groups/pagegroup_unwritable/pages/page_unwritable";
let disk: ReturnType<typeof createDisk>;
let server: MockServer | undefined;
beforeEach(() => {
  disk = createDisk();
});
afterEach(async () => {
  disk.restore();
  await server?.close();
  server = undefined;
});

/** A server whose state file has just failed a write: the disk stays full. */
async function unwritable(): Promise<MockServer> {
  const path = join(dir, `state-${++count}.jsonl`);
  disk.on(path);
  server = await startMockServer({
    port: 0,
    apiKeys: [KEY],
    seed: 7,
    stateFile: path,
    webhooks: { deliver: false },
    onStateFileNotice: () => {},
    fixtures: (state) => {
      state.pageGroups.create({ id: "pagegroup_unwritable" });
      state.pages.create({ id: "page_unwritable", pageGroupId: "pagegroup_unwritable", customName: "Pricing" });
    },
  });
  disk.fillAt("append");
  const refused = await send(server, { method: "POST", path: "/v0/prospect_logs", body: { source: "lost", payload: {} } });
  expect([refused.status, refused.code]).toEqual([503, "state_not_persisted"]);
  expect(disk.full).toBe(true);
  return server;
}

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly key?: false;
}

async function send(to: MockServer, call: Call): Promise<{ status: number; code: string | undefined }> {
  const response = await fetch(`${to.url}${call.path}`, {
    method: call.method,
    headers: {
      ...(call.key !== false && { "x-api-key": KEY }),
      ...(call.body !== undefined && { "content-type": "application/json" }),
      ...call.headers,
    },
    ...(call.body !== undefined && { body: typeof call.body === "string" ? call.body : JSON.stringify(call.body) }),
  });
  const text = await response.text();
  let code: string | undefined;
  try {
    code = (JSON.parse(text) as { code?: string }).code;
  } catch {
    code = undefined;
  }
  return { status: response.status, code };
}

describe("while the state file cannot be written, a request that never writes to it gets its usual answer", () => {
  const KINDS: readonly { kind: string; call: Call; status: number }[] = [
    { kind: "an API read (getPage)", call: { method: "GET", path: PAGE }, status: 200 },
    { kind: "an API read with HEAD", call: { method: "HEAD", path: PAGE }, status: 200 },
    { kind: "a control read", call: { method: "GET", path: "/__mock/state" }, status: 200 },
    { kind: "the request log", call: { method: "GET", path: "/__mock/requests" }, status: 200 },
    {
      kind: "arming a fault (faults are never written to the file)",
      call: { method: "POST", path: "/__mock/faults", body: { kind: "status", status: 500, operation: "getPage", times: null } },
      status: 201,
    },
    { kind: "clearing the faults", call: { method: "DELETE", path: "/__mock/faults" }, status: 200 },
    { kind: "the OpenAPI document", call: { method: "GET", path: "/openapi.json", key: false }, status: 200 },
    { kind: "the console", call: { method: "GET", path: "/__mock/console", key: false }, status: 200 },
    {
      kind: "a CORS preflight",
      call: {
        method: "OPTIONS",
        path: "/v0/prospect_logs",
        key: false,
        headers: { origin: "https://app.example", "access-control-request-method": "POST" },
      },
      status: 204,
    },
    {
      kind: "the inbox's receiver (its messages are not kept; no subscription points here)",
      call: { method: "POST", path: "/__mock/inbox/nobody", body: {}, key: false },
      status: 404,
    },
    {
      kind: "a write without a key",
      call: { method: "POST", path: "/v0/prospect_logs", body: { source: "s", payload: {} }, key: false },
      status: 401,
    },
    { kind: "a write to no such path", call: { method: "POST", path: "/v0/no_such_thing", body: {} }, status: 404 },
    { kind: "a method the path does not serve", call: { method: "DELETE", path: PAGE }, status: 405 },
    { kind: "a write whose body is not JSON", call: { method: "POST", path: "/v0/prospect_logs", body: "{not json" }, status: 400 },
  ];

  it.each(KINDS)("$kind: $status", async ({ call, status }) => {
    const running = await unwritable();
    const answer = await send(running, call);
    expect(answer.code).not.toBe("state_not_persisted");
    expect(answer.status).toBe(status);
    // The file still cannot be written: a request that needs it is still refused.
    const write = await send(running, { method: "POST", path: "/v0/prospect_logs", body: { source: "still-refused", payload: {} } });
    expect([write.status, write.code]).toEqual([503, "state_not_persisted"]);
  });

  it("a fault armed while the file cannot be written applies to the next API call", async () => {
    const running = await unwritable();
    expect(
      (await send(running, { method: "POST", path: "/__mock/faults", body: { kind: "status", status: 418, operation: "getPage" } })).status,
    ).toBe(201);
    expect((await send(running, { method: "GET", path: PAGE })).status).toBe(418);
  });
});
