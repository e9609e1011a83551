/**
 * `prospectkit-mock --state FILE`, the built CLI as users run it: everything created comes back
 * after a restart (secrets included: signatures still verify); `kill -9` in the middle of a burst
 * of writes loses nothing that was answered; a corrupt file or a second server is refused with one
 * line and exit code 2, the file left untouched.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../src/index.js";
import { type CliProcess, runCliToExit, startCli } from "./support/cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "prospectkit-state-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let count = 0;
const newPath = () => join(dir, `state-${++count}.jsonl`);
const KEY = "mock_api_key";

const running = new Set<CliProcess>();
afterEach(async () => {
  for (const cli of running) await cli.stop("SIGKILL");
  running.clear();
});

async function start(args: string[]): Promise<CliProcess> {
  const cli = await startCli(["--port", "0", "--quiet", ...args]);
  running.add(cli);
  return cli;
}

async function stop(cli: CliProcess, signal: NodeJS.Signals = "SIGINT"): Promise<number | null> {
  running.delete(cli);
  return cli.stop(signal);
}

async function call(cli: CliProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${cli.url}${path}`, {
    method,
    headers: { "x-api-key": KEY, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** Everything a tenant can read back over HTTP, secrets included. */
async function readBack(cli: CliProcess, subscriptionIds: readonly string[]) {
  const secrets = await Promise.all(subscriptionIds.map((id) => call(cli, "GET", `/__mock/webhook_subscriptions/${id}/secret`)));
  return {
    state: await call(cli, "GET", "/__mock/state"),
    logs: await call(cli, "GET", "/__mock/prospect_logs"),
    events: await call(cli, "GET", "/__mock/webhook_events"),
    deliveries: await call(cli, "GET", "/__mock/webhook_deliveries"),
    secrets,
  };
}

/** A local receiver of webhook deliveries. */
async function receiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => server.close() };
}

describe("--state FILE: a restart over the CLI", () => {
  it("creates every resource kind, restarts, reads everything back identical; the restored secret still signs", async () => {
    const path = newPath();
    const hook = await receiver();
    try {
      const first = await start(["--state", path, "--no-webhooks"]);
      const subscription = (await call(first, "POST", "/__mock/webhook_subscriptions", { url: hook.url })).body as { id: string; secret: string };
      await call(first, "POST", `/__mock/webhook_subscriptions/${subscription.id}/secret/rotate`);
      expect(
        (await call(first, "POST", "/v0/prospect_logs", { source: "crm", email: "ada@example.com", payload: { n: 1 }, idempotencyKey: "once" }))
          .status,
      ).toBe(201);
      const page = (await call(first, "POST", "/__mock/pages", { customName: "Pricing" })).body as { id: string };
      const version = (await call(first, "POST", "/__mock/page_versions", { pageId: page.id })).body as { id: string };
      await call(first, "POST", `/__mock/page_versions/${version.id}/process`, { computedName: "Prices" });
      await call(first, "POST", `/__mock/page_versions/${version.id}/publish`);
      await call(first, "POST", "/__mock/webhook_events", { kind: "form.submitted", data: { form: "f" } });
      const [demo] = ((await call(first, "GET", "/__mock/state")).body as { webhookSubscriptions: { id: string }[] }).webhookSubscriptions;
      const ids = [demo!.id, subscription.id];
      const before = await readBack(first, ids);
      expect(await stop(first)).toBe(0);

      const second = await start(["--state", path]); // webhooks on: the pending deliveries resume
      expect(await readBack(second, ids).then(({ deliveries: _, ...rest }) => rest)).toEqual((({ deliveries: _, ...rest }) => rest)(before));
      // The idempotency key survived: the same request replays the same answer.
      const replay = await call(second, "POST", "/v0/prospect_logs", {
        source: "crm",
        email: "ada@example.com",
        payload: { n: 1 },
        idempotencyKey: "once",
      });
      expect((replay.body as { prospectLogId: string }).prospectLogId).toBe((before.logs.body as { data: { id: string }[] }).data[0]!.id);
      await expect.poll(() => hook.received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      const { secret } = before.secrets[1]!.body as { secret: string };
      const [delivery] = hook.received;
      const headers = new Headers(Object.entries(delivery!.headers).map(([name, value]) => [name, String(value)] as [string, string]));
      await expect(verifyWebhook({ secret, headers, body: delivery!.body })).resolves.toMatchObject({ type: expect.any(String) });
    } finally {
      hook.close();
    }
  });
});

describe("--state FILE: kill -9 in the middle of a burst of 1,000 writes", () => {
  it("the restarted server holds every log that was answered 201", async () => {
    const path = newPath();
    const first = await start(["--state", path, "--no-webhooks"]);
    const acknowledged: string[] = [];
    let sent = 0;
    let killed = false;
    const worker = async () => {
      while (sent < 1_000 && !killed) {
        const n = sent++;
        try {
          const answer = await call(first, "POST", "/v0/prospect_logs", { source: "burst", email: `p${n}@example.com`, payload: { n } });
          if (answer.status === 201) acknowledged.push((answer.body as { prospectLogId: string }).prospectLogId);
        } catch {
          return; // the server is gone
        }
        if (acknowledged.length >= 400 && !killed) {
          killed = true;
          await stop(first, "SIGKILL");
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    expect(killed).toBe(true);

    const second = await start(["--state", path, "--no-webhooks"]);
    const stored = ((await call(second, "GET", "/__mock/prospect_logs")).body as { data: { id: string }[] }).data.map(({ id }) => id);
    expect(stored.length).toBeLessThanOrEqual(sent);
    const missing = acknowledged.filter((id) => !stored.includes(id));
    expect(missing).toEqual([]);
  });
});

describe("--state FILE: refusals", () => {
  it("a corrupt file stops the start with one line naming it, exit code 2, and is left untouched", async () => {
    const path = newPath();
    const text = '{"format":"prospectkit-mock-state","version":1}\n{"tenants": [\n';
    writeFileSync(path, text);
    const exit = await runCliToExit(["--port", "0", "--state", path]);
    expect(exit.code).toBe(2);
    const where = "( \\(at character \\d+\\))?";
    expect(exit.stderr).toMatch(
      new RegExp(`^prospectkit-mock: state file ${path.replace(/[\\.]/g, "\\$&")}: line 2 is not valid JSON${where}; the file is left as it is\n$`),
    );
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("a second server on the same file refuses to start (exit code 2); the first keeps answering", async () => {
    const path = newPath();
    const first = await start(["--state", path]);
    const exit = await runCliToExit(["--port", "0", "--state", path]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(
      new RegExp(
        `^prospectkit-mock: state file ${path.replace(/[\\.]/g, "\\$&")}: in use by another prospectkit-mock \\(process ${first.child.pid}\\)`,
      ),
    );
    expect((await call(first, "GET", "/__mock/state")).status).toBe(200);
  });
});
