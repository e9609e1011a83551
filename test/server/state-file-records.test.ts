/**
 * What a state file may hold, and how it is read: one record per line (format 2), each checked
 * with the API's own schemas as it is read (format 2 is the only one: no release wrote another).
 * A file that is not a valid state stops the start, names the line and the JSON Pointer of the
 * field (never its value: it may be a key or a secret) and is left untouched. An idempotency key
 * whose request was still in flight is never written by a compaction and is dropped at load,
 * whatever form holds it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type MockServer, type MockServerOptions, StateFileError, startMockServer } from "../../mock/server/index.js";
import { startServer } from "../../mock/server/start.js";
import { FORMAT_LINE } from "../../mock/state/persist/decode.js";
import { stateRecords } from "../../mock/state/persist/records.js";
import type { SavedState } from "../../mock/state/persist/saved-state.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-records-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const newPath = () => join(dir, `state-${++count}.jsonl`);

const KEY = "records_key";
const SECRET_LOOKING = "whsec_c2VjcmV0LXNob3VsZC1uZXZlci1iZS1zaG93bg==";
const running = new Set<MockServer>();
afterEach(async () => {
  for (const server of running) await server.close();
  running.clear();
});

const options = (stateFile: string, extra: MockServerOptions = {}): MockServerOptions => ({
  port: 0,
  apiKeys: [KEY],
  seed: 11,
  stateFile,
  webhooks: { deliver: false },
  ...extra,
});

async function start(stateFile: string, extra?: MockServerOptions): Promise<MockServer> {
  const server = await startMockServer(options(stateFile, extra));
  running.add(server);
  return server;
}

/** The start's refusal (a StateFileError), or undefined when it started. */
async function refusalOf(path: string): Promise<StateFileError | undefined> {
  return startMockServer(options(path)).then(
    (server) => void running.add(server),
    (thrown: unknown) => thrown as StateFileError,
  );
}

/** A saved state holding one record of every kind (a prospect with each identifier, a subscription, a delivery), as live records. */
async function savedState(): Promise<SavedState> {
  const { server, mock } = await startServer({ port: 0, apiKeys: [KEY], seed: 11, webhooks: { deliver: false } });
  running.add(server);
  const { state } = server.api;
  state.prospectLogs.create({ source: "crm", payload: { n: 1 }, email: "ada@example.com", phoneNumber: "+4930123456", name: "Ada" });
  const page = state.pages.create({ customName: "Pricing" });
  const version = state.pageVersions.create({ pageId: page.id });
  state.pageVersions.process(version.id, { computedName: "Prices" });
  state.pageVersions.publish(version.id);
  state.webhookSubscriptions.create({ url: "http://127.0.0.1:9/hook" });
  state.forms.emit({ kind: "form.submitted", data: { form: "f" } });
  return structuredClone(mock.save());
}

/** The state as a format 2 file: the format line, then one record per line. */
const format2 = (saved: SavedState) => `${[FORMAT_LINE, ...[...stateRecords(saved)].map((record) => JSON.stringify(record))].join("\n")}\n`;

/** The line (from 1) of a format 2 file that stores a record of `collection` (the first one). */
function lineOf(text: string, collection: string): number {
  return text.split("\n").findIndex((line) => line.includes(`"op":"put","in":"${collection}"`)) + 1;
}

type Mutable = { -readonly [K in keyof SavedState]: any };
const tenant0 = (saved: Mutable) => saved.tenants[0];

describe("every stored field is checked with the API's own schemas", () => {
  const CASES: readonly {
    rule: string;
    bad: string;
    change: (saved: Mutable, bad: string) => void;
    /** The collection and field the refusal names (its line, `/value/...`). */
    v2: { collection: string; pointer: string } | { record: RegExp; pointer: string };
  }[] = [
    {
      rule: "an email that is not a valid address",
      bad: "not-an-email@@",
      change: (saved, bad) => void (tenant0(saved).prospects[0].email = bad),
      v2: { collection: "prospects", pointer: "/value/email" },
    },
    {
      rule: "a phone number that is not E.164",
      bad: "0049 30 123",
      change: (saved, bad) => void (tenant0(saved).prospects[0].phoneNumber = bad),
      v2: { collection: "prospects", pointer: "/value/phoneNumber" },
    },
    {
      rule: "a prospect ID that is not prospect_ and 26 lower-case letters or digits",
      bad: "prospect_NOT-AN-ID",
      change: (saved, bad) => void (tenant0(saved).prospects[0].id = bad),
      v2: { collection: "prospects", pointer: "/value/id" },
    },
    {
      rule: "a log's source longer than 100 characters",
      bad: "s".repeat(101),
      change: (saved, bad) => void (tenant0(saved).prospectLogs[0].source = bad),
      v2: { collection: "prospectLogs", pointer: "/value/source" },
    },
    {
      rule: "a subscription's secret that is not whsec_ and a base64 key",
      bad: "whsec_!not base64!",
      change: (saved, bad) => void (tenant0(saved).webhookSubscriptions[0].secret = bad),
      v2: { collection: "webhookSubscriptions", pointer: "/value/secret" },
    },
    {
      rule: "a subscription's URL that is not http(s)",
      bad: "ftp://example.com/hook",
      change: (saved, bad) => void (tenant0(saved).webhookSubscriptions[0].url = bad),
      v2: { collection: "webhookSubscriptions", pointer: "/value/url" },
    },
    {
      rule: "a page's timestamp that is not ISO 8601 in UTC",
      bad: "last tuesday",
      change: (saved, bad) => void (tenant0(saved).pages[0].createdAt = bad),
      v2: { collection: "pages", pointer: "/value/createdAt" },
    },
    {
      rule: "a delivery's secret that is not whsec_ and a base64 key",
      bad: "sk_live_not_a_webhook_secret",
      change: (saved, bad) => void (saved.webhooks.deliveries[0].secret = bad),
      v2: { record: /"kind":"delivery"/, pointer: "/change/delivery/secret" },
    },
    {
      // Issue 32: `isolated: true` marks a tenant made for one test (its keys never reset the server); nothing else may stand there.
      rule: "a tenant's isolated flag that is not true",
      bad: "not-true",
      change: (saved, bad) => void (tenant0(saved).tenant.isolated = bad),
      v2: { record: /"op":"tenant"/, pointer: "/value/isolated" },
    },
    {
      rule: "an API key with a character a header cannot carry",
      bad: "key with\nnewline",
      change: (saved, bad) => void (saved.apiKeys[0][0] = bad),
      v2: { record: /"op":"key"/, pointer: "/key" },
    },
  ];

  it.each(CASES)("format 2: $rule is refused, naming its line and field, never its value", async ({ bad, change, v2 }) => {
    const saved = (await savedState()) as Mutable;
    change(saved, bad);
    const text = format2(saved);
    const line = "collection" in v2 ? lineOf(text, v2.collection) : text.split("\n").findIndex((candidate) => v2.record.test(candidate)) + 1;
    const path = newPath();
    writeFileSync(path, text);
    const error = await refusalOf(path);
    expect(error).toBeInstanceOf(StateFileError);
    expect(error!.message).toMatch(new RegExp(`: line ${line} is not a valid record: ${v2.pointer}: .+; the file is left as it is$`));
    expect(error!.message).not.toContain(bad.trim().split("\n")[0]!.slice(0, 12));
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});

describe("a file that is not a valid state stops the start, names the problem and is left untouched", () => {
  const CASES: readonly [string, (text: string) => string, RegExp][] = [
    ["not a state file", () => `${JSON.stringify({ pages: [] })}\n`, /not a prospectkit-mock state file/],
    ["another format version", () => `${JSON.stringify({ format: "prospectkit-mock-state", version: 99 })}\n{}\n`, /format version 99/],
    // Format 1 (the whole state on one line) was never written by a release: 0.1.0 writes format 2.
    [
      "format version 1",
      () => `${JSON.stringify({ format: "prospectkit-mock-state", version: 1 })}\n{}\n`,
      /format version 1, which this prospectkit does not read/,
    ],
    [
      "a record that is not JSON",
      (text) => text.replace(/\n(\{"op":"key"[^\n]*)\n/, (_, line: string) => `\n${line.slice(0, -4)}\n`),
      /line \d+ is not valid JSON/,
    ],
    ["a record of no known kind", (text) => `${text}{"op":"mystery"}\n{"op":"reset"}\n`, /line \d+ is not a valid record: \/op: /],
    [
      "a change to a tenant that does not exist",
      (text) => `${text}${JSON.stringify({ op: "delete", in: "pages", tenantId: "tenant_nope", id: "p" })}\n`,
      /line \d+ is not a valid record: \/tenantId: names no tenant of the state; the file is left as it is$/,
    ],
    [
      "a tenant deleted that does not exist",
      (text) => `${text}${JSON.stringify({ op: "delete-tenant", tenantId: "tenant_nope" })}\n`,
      /line \d+ is not a valid record: \/tenantId: names no tenant of the state; the file is left as it is$/,
    ],
    [
      "records that end in a dangling reference (named at the line that stores it)",
      (text) => {
        const tenantId = (JSON.parse(text.split("\n").find((line) => line.startsWith('{"op":"tenant"'))!) as { value: { id: string } }).value.id;
        const version = {
          id: "pageversion_dangling",
          tenantId,
          pageId: "page_nope",
          versionNumber: 1,
          createdAt: "2024-01-01T00:00:00.000Z",
          status: "created",
          computedName: null,
          processedAt: null,
          publishedAt: null,
        };
        return `${text}${JSON.stringify({ op: "put", in: "pageVersions", tenantId, value: version })}\n`;
      },
      /line \d+: \/value\/pageId: names no record of the tenant; the file is left as it is$/,
    ],
  ];

  it("a record stored twice in a state written whole is refused, naming the line of the second", async () => {
    const path = newPath();
    const lines = format2(await savedState()).split("\n");
    const log = lines.findIndex((line) => line.includes('"in":"prospectLogs"'));
    lines.splice(log + 1, 0, lines[log]!);
    const header = JSON.parse(lines[1]!) as { records: number };
    lines[1] = JSON.stringify({ ...header, records: header.records + 1 });
    const text = lines.join("\n");
    writeFileSync(path, text);
    const error = await refusalOf(path);
    expect(error!.message).toMatch(new RegExp(`: line ${log + 2}: a record of /tenants/0/prospectLogs is stored twice; the file is left as it is$`));
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it.each(CASES)("%s", async (_name, content, message) => {
    const path = newPath();
    const text = content(format2(await savedState()));
    writeFileSync(path, text);
    const error = await refusalOf(path);
    expect(error).toBeInstanceOf(StateFileError);
    expect(error!.message).toMatch(message);
    expect(error!.message).toContain(path);
    expect(error!.message).not.toContain("\n");
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("a line that is not JSON is named without quoting it (it may hold an API key or a secret)", async () => {
    const path = newPath();
    writeFileSync(path, `${FORMAT_LINE}\n{"op":"key","key":"${SECRET_LOOKING}", oops\n`);
    const error = await refusalOf(path);
    expect(error!.message).toMatch(/line 2 is not valid JSON( \(at character \d+\))?; the file is left as it is$/);
    expect(error!.message).not.toContain(SECRET_LOOKING);
  });
});

describe("an idempotency key whose request was in flight is never saved and never loaded", () => {
  /** A state whose tenant holds a key still in flight (`result: null`) beside a finished one. */
  async function withClaim(): Promise<SavedState> {
    const saved = (await savedState()) as Mutable;
    const done = { key: "done", fingerprint: "f1", result: null as unknown, storedAtMs: Date.now() };
    const log = tenant0(saved).prospectLogs[0];
    done.result = {
      prospectId: log.prospectId,
      prospectLogId: log.id,
      createdAt: log.createdAt,
      createdProspect: true,
      source: "crm",
      type: "webhook",
    };
    tenant0(saved).idempotency = [done, { key: "in-flight", fingerprint: "f2", result: null, storedAtMs: Date.now() }];
    return saved;
  }

  it("a compaction leaves it out", async () => {
    const saved = await withClaim();
    expect([...stateRecords(saved)].filter((record) => record.op === "put" && record.in === "idempotency")).toHaveLength(1);
  });

  it("written as a record: dropped at load, so a retry with that key runs (never 409)", async () => {
    const path = newPath();
    const saved = await withClaim();
    writeFileSync(
      path,
      format2(saved).replace(
        /\n$/,
        `\n${JSON.stringify({ op: "put", in: "idempotency", tenantId: saved.tenants[0]!.tenant.id, value: { key: "in-flight", fingerprint: "f2", result: null, storedAtMs: 2 } })}\n`,
      ),
    );
    const server = await start(path);
    const response = await fetch(`${server.url}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ source: "retry", payload: {}, idempotencyKey: "in-flight" }),
    });
    expect(response.status).toBe(201);
    const replay = await fetch(`${server.url}/v0/prospect_logs`, {
      method: "POST",
      headers: { "x-api-key": KEY, "content-type": "application/json" },
      body: JSON.stringify({ source: "other", payload: {}, idempotencyKey: "done" }),
    });
    expect(replay.status).toBe(422); // the finished key was kept (another body)
  });
});

describe("formats", () => {
  it("a written file is one record per line, each a JSON object no longer than its record", async () => {
    const path = newPath();
    const server = await start(path);
    server.api.state.prospectLogs.create({ source: "crm", payload: { big: "z".repeat(10_000) } });
    await server.close();
    running.delete(server);
    const lines = readFileSync(path, "utf8").split("\n").slice(1, -1);
    for (const line of lines) expect(Object.keys(JSON.parse(line) as object)).toContain("op");
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(11_000);
  });

  it("bytes after the last newline (a write the server died in) are left out, and cut off before the next append", async () => {
    const path = newPath();
    const text = format2(await savedState());
    writeFileSync(path, `${text}{"op":"tenant","val`);
    const server = await start(path);
    expect(server.api.state.tenants.list()).toHaveLength(1);
    server.api.state.pages.create({ id: "page_after" });
    await new Promise((done) => setImmediate(done));
    const written = readFileSync(path, "utf8");
    expect(written.startsWith(text)).toBe(true);
    expect(written).not.toContain('"val\n');
    for (const line of written.split("\n").slice(0, -1)) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("an empty file, or one whose first write was cut short, is a new one", async () => {
    for (const content of ["", FORMAT_LINE.slice(0, 10)]) {
      const path = newPath();
      writeFileSync(path, content);
      const server = await start(path);
      expect(server.api.state.tenants.list()).toHaveLength(1);
    }
  });
});
