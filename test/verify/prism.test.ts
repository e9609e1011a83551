/**
 * `verify` against Stoplight Prism serving the mock's own /openapi.json: a mock that keeps the
 * shapes only. The report names the behaviour rules Prism does not keep, each with its class.
 * Prism (pinned) is installed from npm into a throw-away folder, like msw 2, without install
 * scripts (the only one in its tree is @scarf/scarf's usage report, which Prism does not need); a
 * failed install fails the test, in CI too: nothing is skipped.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTRACT_RULES } from "../../mock/verify/rules/index.js";
import { npm } from "../package/pack.js";
import { CLI, type CliProcess, startCli } from "../server/support/cli-process.js";

/** The Prism the expectations below were measured with. */
const PRISM = "@stoplight/prism-cli@5.16.0";
const KEY = "pk_verify_prism_key_0123456789";

/** What Prism 5.16 does not keep, measured (static examples: the same every run). */
const FAILED = [
  "auth.missing-key (mock decision)", // its 401 is the document's example: code "string"
  "auth.unknown-key (mock decision)", // any key is accepted
  "auth.key-case (mock decision)",
  "auth.header-only (mock decision)",
  "auth.before-validation (mock decision)",
  "auth.before-route (mock decision)",
  "auth.before-body (mock decision)",
  "errors.unknown-route (mock decision)", // Prism's own problem types
  "errors.outside-v0 (mock decision)",
  "errors.wrong-method (mock decision)",
  "errors.head (mock decision)",
  "operations.success (spec)", // the create's example IDs ("string") break the ID patterns
  "body.media-type (mock decision)",
  "body.content-encoding (mock decision)",
  "body.too-large (mock decision)",
  "body.malformed (mock decision)",
  "body.not-object (mock decision)",
  "body.json-limits (mock decision)",
  "errors.check-order (mock decision)",
  "create.result (spec)", // the example IDs ("string") break the ID patterns
  "create.type-default (spec)", // nothing is stored: source and type are the example's
  "create.field-errors (mock decision)",
  "create.ids (mock decision)",
  "create.created-prospect (mock decision)",
  "create.resolution-email (mock decision)",
  "create.resolution-phone (mock decision)",
  "create.resolution-linkedin (mock decision)",
  "create.resolution-order (mock decision)",
  "create.resolution-prospect-id-first (mock decision)",
  "create.resolution-never-overwritten (mock decision)",
  "create.resolution-gains-identifiers (mock decision)",
  "create.resolution-new-prospect (mock decision)",
  "create.idempotent-replay (mock decision)", // every answer says idempotent-replayed
  "create.idempotency-same-body (mock decision)",
  "create.idempotency-key-reused (mock decision)",
  "create.idempotency-refused-request (mock decision)",
  "page.result (spec)", // another page's IDs
  "page.published-version (mock decision)",
  "page.missing (mock decision)",
  "page.other-group (mock decision)",
  "page.ids-exact (mock decision)",
  "subscription.result (spec)", // another subscription's id
  "subscription.noop (mock decision)",
  "subscription.partial (mock decision)", // the change is not applied
  "subscription.updated-at (mock decision)",
  "subscription.refused-changes-nothing (mock decision)",
  "subscription.unknown-fields (mock decision)",
  "subscription.missing (mock decision)",
  "subscription.url-exact (mock decision)",
  "subscription.url-invalid (mock decision)",
  "subscription.events-members (spec)", // the example's events
  "subscription.events-empty (mock decision)",
  "subscription.events-null (mock decision)",
  "subscription.events-deduplicated (mock decision)",
  "errors.problem-body (mock decision)",
  "errors.request-id (mock decision)",
  "timestamps.exact-form (mock decision)",
];

describe(`verify against Stoplight Prism (${PRISM}) serving /openapi.json`, () => {
  let dir: string;
  let server: CliProcess;
  let prism: ChildProcess | undefined;
  let prismUrl: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "prospectkit-prism-"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "prism-run", private: true, version: "1.0.0" }));
    npm(["install", "--no-audit", "--no-fund", "--silent", "--ignore-scripts", PRISM], dir);
    server = await startCli(["--port", "0", "--api-key", KEY, "--quiet"]);
    prism = spawn(
      process.execPath,
      [join(dir, "node_modules/@stoplight/prism-cli/dist/index.js"), "mock", "-h", "127.0.0.1", "-p", "0", `${server.url}/openapi.json`],
      {
        cwd: dir,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    prismUrl = await new Promise<string>((resolve, reject) => {
      let out = "";
      prism!.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
        out += chunk;
        const match = /Prism is listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      prism!.once("exit", (code) => reject(new Error(`prism exited (${code}): ${out}`)));
    });
  }, 240_000);
  afterAll(async () => {
    // Prism does not stop on SIGTERM while it holds a connection: killed, and waited for.
    if (prism !== undefined && prism.exitCode === null) {
      const exited = new Promise((resolve) => prism!.once("exit", resolve));
      prism.kill("SIGKILL");
      await exited;
    }
    await server?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("the report names each behaviour rule Prism does not keep, with its class; the shapes it keeps pass; every rule runs; exit code 1", async () => {
    // Both servers are child processes: a synchronous run blocks nothing they need.
    const { status: code, stdout } = spawnSync(
      process.execPath,
      [
        CLI,
        "verify",
        "--base-url",
        prismUrl,
        "--page",
        "pagegroup_demo/page_demo",
        "--subscription",
        "webhooksubscription_demo",
        "--json",
        "--rate",
        "100",
      ],
      { cwd: dir, env: { ...process.env, PROSPECTKIT_API_KEY: KEY }, encoding: "utf8", timeout: 60_000 },
    );
    const report = JSON.parse(stdout) as {
      exitCode: number;
      results: { id: string; class: string; status: string; message?: string }[];
      restore: { ok: boolean };
    };
    const failed = report.results.filter((result) => result.status === "failed").map((result) => `${result.id} (${result.class})`);
    expect(failed.sort()).toEqual([...FAILED].sort());
    expect(report.results.find((result) => result.id === "auth.required")?.status).toBe("passed");
    expect(report.results.find((result) => result.id === "subscription.events-closed-list")?.status).toBe("passed");
    // Without --other-tenant-key the rules that need it are skipped, naming the option; every other rule ran.
    const needingOtherTenant = CONTRACT_RULES.filter((rule) => rule.needs?.includes("otherTenantKey")).length;
    expect(report.results.filter((result) => result.status === "skipped").map((result) => result.message)).toEqual(
      Array(needingOtherTenant).fill("needs --other-tenant-key KEY"),
    );
    expect(report.results.filter((result) => result.status === "not run")).toEqual([]);
    expect(report.restore.ok).toBe(true);
    expect({ code, exitCode: report.exitCode }).toEqual({ code: 1, exitCode: 1 });
    expect(stdout).not.toContain(KEY);
  });
});
