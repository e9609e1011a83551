/**
 * `prospectkit-mock verify` as users run it: the built CLI against the built CLI's server. With
 * every input given (the second tenant's key from `POST /__mock/tenants`) every rule runs and passes,
 * in under 30 s; without one, its rules are skipped naming the option; Ctrl+C mid-run puts the
 * subscription back; no key is printed or written.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERIFY_HELP } from "../../mock/server/cli/verify.js";
import { CONTRACT_RULES } from "../../mock/verify/index.js";
import { CLI, type CliProcess, startCli } from "./support/cli-process.js";

const KEY = "pk_verify_cli_key_0123456789";
const DEMO = { page: "pagegroup_demo/page_demo", subscription: "webhooksubscription_demo" };

/** Runs `verify` with these arguments; the key comes from the environment, as in CI. */
function verify(
  args: readonly string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const child = spawn(process.execPath, [CLI, "verify", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PROSPECTKIT_API_KEY: KEY, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done };
}

async function subscriptionOf(server: CliProcess): Promise<unknown> {
  const response = await fetch(`${server.url}/v0/webhook_subscriptions/${DEMO.subscription}`, {
    method: "PATCH",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: "{}",
  });
  const { url, events, active } = (await response.json()) as Record<string, unknown>;
  return { url, events, active };
}

describe("prospectkit-mock verify against prospectkit-mock", () => {
  let server: CliProcess;
  let dir: string;
  let original: unknown;
  beforeAll(async () => {
    server = await startCli(["--port", "0", "--api-key", KEY]);
    original = await subscriptionOf(server);
    dir = mkdtempSync(join(tmpdir(), "prospectkit-verify-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("every rule runs and passes, exit code 0, in under 30 s (the other tenant made by POST /__mock/tenants)", async () => {
    const tenant = await fetch(`${server.url}/__mock/tenants`, { method: "POST", headers: { "x-api-key": KEY } });
    expect(tenant.status).toBe(201);
    const { apiKey: otherKey } = (await tenant.json()) as { apiKey: string };
    const started = performance.now();
    const junit = join(dir, "verify.xml");
    const { code, stdout, stderr } = await verify(
      ["--base-url", server.url, "--page", DEMO.page, "--subscription", DEMO.subscription, "--rate", "200", "--junit", junit],
      { PROSPECTKIT_OTHER_TENANT_KEY: otherKey },
    ).done;
    expect(performance.now() - started).toBeLessThan(30_000);
    expect({ code, stderr: stderr.trim() }).toEqual({
      code: 0,
      stderr: `prospectkit-mock verify: ${CONTRACT_RULES.length} rules against ${server.url}, at most 600 requests`,
    });
    expect(stdout).toMatch(new RegExp(`\\n${CONTRACT_RULES.length} passed, 0 failed \\(0 spec, 0 mock decision\\), 0 skipped, 0 not run;`));
    expect(stdout).toContain("Subscription webhooksubscription_demo: restored to its url, events and active (shown by the answers)");
    const xml = readFileSync(junit, "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(CONTRACT_RULES.length);
    expect(xml).not.toContain("<failure");
    // The server's banner shows its key on purpose (the curl commands); its request lines never do.
    const requestLines = server.stdout().split("Ctrl+C stops.\n")[1]!;
    expect(requestLines).toMatch(/POST \/v0\/prospect_logs 201/);
    for (const text of [stdout, stderr, xml, requestLines, server.stderr()]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(otherKey);
    }
    expect(await subscriptionOf(server)).toEqual(original);
  });

  it("--json prints the report as JSON, the same counts", async () => {
    const { code, stdout } = await verify(["--base-url", server.url, "--json", "--rate", "200"]).done;
    const report = JSON.parse(stdout) as { exitCode: number; summary: Record<string, number>; results: { status: string; message?: string }[] };
    expect(code).toBe(0);
    expect(report.exitCode).toBe(0);
    expect(report.summary.failed).toBe(0);
    // Without --page and --subscription, their rules are skipped and say which option runs them, never passed.
    const skipped = report.results.filter((result) => result.status === "skipped").map((result) => result.message);
    expect(skipped).toContain("needs --page GROUP/PAGE");
    expect(skipped).toContain("needs --subscription ID");
    expect(stdout).not.toContain(KEY);
  });

  it("Ctrl+C mid-run: the subscription is put back, the report says what ran, exit code 2", async () => {
    // The rules that change the subscription come late in the run (after about 180 requests): a pace that gets there in seconds.
    const run = verify(["--base-url", server.url, "--page", DEMO.page, "--subscription", DEMO.subscription, "--rate", "50"]);
    // The server prints a line per request: wait until verify has changed the subscription at least once.
    const changed = () => (server.stdout().match(/PATCH \/v0\/webhook_subscriptions\/webhooksubscription_demo 200/g) ?? []).length;
    const before = changed();
    await expect.poll(changed, { timeout: 20_000, interval: 50 }).toBeGreaterThanOrEqual(before + 3);
    run.child.kill("SIGINT");
    const { code, stdout, stderr } = await run.done;
    expect(code).toBe(2);
    expect(stderr).toContain("interrupted; putting the subscription back");
    expect(stdout).toContain("Subscription webhooksubscription_demo: restored to its url, events and active (shown by the answers)");
    expect(stdout).toMatch(/Stopped early: interrupted/);
    expect(await subscriptionOf(server)).toEqual(original);
  });

  it("verify --help prints its options and exit codes, exit code 0", async () => {
    const { code, stdout } = await verify(["--help"]).done;
    expect(code).toBe(0);
    expect(stdout).toBe(`${VERIFY_HELP}\n`);
    for (const option of [
      "--base-url",
      "--api-key",
      "--page",
      "--subscription",
      "--other-tenant-key",
      "--strict",
      "--json",
      "--junit",
      "--max-requests",
      "--rate",
    ])
      expect(stdout).toContain(option);
  });

  it.each([
    ["no --base-url", [], "verify needs --base-url URL"],
    ["a base URL that is not http(s)", ["--base-url", "ftp://x"], "--base-url must be an http(s) URL"],
    ["--page without a slash", ["--base-url", "http://127.0.0.1:1", "--page", "page_demo"], "--page must be GROUP/PAGE"],
    ["--max-requests 0", ["--base-url", "http://127.0.0.1:1", "--max-requests", "0"], "--max-requests must be a whole number from 1"],
  ])("%s: a usage error, exit code 2", async (_, args, message) => {
    const { code, stderr } = await verify(args).done;
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it("a deployment that cannot be reached: could not run, exit code 2", async () => {
    const { code, stdout } = await verify(["--base-url", "http://127.0.0.1:1"]).done;
    expect(code).toBe(2);
    expect(stdout).toMatch(/Stopped early: .*failed/);
  });
});
