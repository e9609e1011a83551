/**
 * `verify` is safe to point at production: the built CLI, with every input, against a recording
 * deployment. The exact set of (method, path shape, key) it sends is pinned here, and with a valid
 * key it sends only the three operations' method and path, or a method that is safe by definition
 * (RFC 9110, 9.2.1: GET, HEAD, OPTIONS). The budget holds (the restore included), and so does the pace.
 */
import { describe, expect, it } from "vitest";
import { OPERATION_TABLE } from "../../src/operation-table.js";
import { startDeployment } from "./support/deployment-server.js";
import { deploymentMock, KEYS } from "./support/deployments.js";
import { pathOf } from "./support/mutation.js";
import { runVerifyCli } from "./support/run-cli.js";

/** A request as the deployment saw it. */
interface Seen {
  readonly method: string;
  readonly shape: string;
  readonly key: string;
  readonly at: number;
}

/** The operations' paths as templates, to name what a path is. */
const TEMPLATES = OPERATION_TABLE.map((route) => ({ route, pattern: new RegExp(`^${route.path.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));

/** A path with its IDs replaced by the template's names, and a query by `?{query}`. */
function shapeOf(request: Request): string {
  const path = pathOf(request);
  const template = TEMPLATES.find(({ pattern }) => pattern.test(path))?.route.path ?? path;
  return `${template}${new URL(request.url).search === "" ? "" : "?{query}"}`;
}

/** Which key a request carried, and whether the deployment knows it. */
function keyOf(request: Request): string {
  const key = request.headers.get("x-api-key");
  if (key === null) return "none";
  if (key === KEYS.a) return "valid (caller)";
  if (key === KEYS.b) return "valid (other tenant)";
  return key === "" ? "empty" : "invalid";
}

/** Runs the CLI against a deployment that records every request. */
async function recordedRun(args: readonly string[] = []) {
  const seen: Seen[] = [];
  const server = await startDeployment(deploymentMock(), (request, next) => {
    seen.push({ method: request.method, shape: shapeOf(request), key: keyOf(request), at: performance.now() });
    return next(request);
  });
  try {
    return { ...(await runVerifyCli(server.url, ["--rate", "1000", ...args])), seen };
  } finally {
    await server.close();
  }
}

const LOGS = "/v0/prospect_logs";
const PAGE = "/v0/page_groups/{page_group_id}/pages/{page_id}";
const SUBSCRIPTION = "/v0/webhook_subscriptions/{subscription_id}";

/** Every (key, method, path shape) a whole run sends, sorted. */
const EXPECTED = [
  `empty POST ${LOGS}`,
  `invalid GET ${PAGE}`,
  `invalid PATCH ${SUBSCRIPTION}`,
  `invalid POST ${LOGS}`,
  `none DELETE ${LOGS}`,
  `none DELETE ${PAGE}`,
  `none DELETE ${SUBSCRIPTION}`,
  "none GET /prospectkit_verify_unknown",
  "none GET /v0/prospectkit_verify_unknown",
  `none GET ${PAGE}`,
  `none PATCH ${SUBSCRIPTION}`,
  `none POST ${LOGS}`,
  `none POST ${LOGS}?{query}`,
  "valid (caller) GET /v0/prospect_logs/prospectkit_verify_unknown",
  "valid (caller) GET /v0/prospectkit_verify_unknown",
  `valid (caller) GET ${PAGE}`,
  `valid (caller) HEAD ${PAGE}`,
  `valid (caller) OPTIONS ${LOGS}`,
  `valid (caller) OPTIONS ${PAGE}`,
  `valid (caller) OPTIONS ${SUBSCRIPTION}`,
  `valid (caller) PATCH ${SUBSCRIPTION}`,
  `valid (caller) POST ${LOGS}`,
  `valid (other tenant) GET ${PAGE}`,
  `valid (other tenant) PATCH ${SUBSCRIPTION}`,
  `valid (other tenant) POST ${LOGS}`,
];

/** The methods RFC 9110 (9.2.1) defines as safe that fetch can send. */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

describe("what verify sends (the built CLI, every input)", () => {
  it("exactly this set of (key, method, path shape); with a valid key, only an operation's own method and path, or a safe method", async () => {
    const { code, seen, report } = await recordedRun();
    expect(code).toBe(0);
    expect([...new Set(seen.map(({ key, method, shape }) => `${key} ${method} ${shape}`))].sort()).toEqual([...EXPECTED].sort());
    const unsafe = seen.filter(
      ({ key, method, shape }) =>
        key.startsWith("valid") && !SAFE.has(method) && !OPERATION_TABLE.some((route) => route.method === method && route.path === shape),
    );
    expect(unsafe).toEqual([]);
    expect(seen).toHaveLength(report.requests);
    expect(report.restore?.ok).toBe(true);
  }, 120_000);

  it("--max-requests 40: at most 40 requests reach the deployment, the restore included, and the subscription is shown restored", async () => {
    const { code, seen, report } = await recordedRun(["--max-requests", "40"]);
    expect(seen.length).toBeLessThanOrEqual(40);
    expect(report.requests).toBe(seen.length);
    expect(report.results.some((result) => result.status === "not run" && /--max-requests 40/.test(result.message ?? ""))).toBe(true);
    expect(report.results.filter((result) => result.status === "failed")).toEqual([]);
    expect(report.restore?.ok).toBe(true);
    // The budget left rules not run: incomplete, never a pass.
    expect(code).toBe(3);
  }, 120_000);

  it("--rate 50: the requests reach the deployment no faster than 50 a second", async () => {
    const { seen } = await recordedRun(["--max-requests", "12", "--rate", "50"]);
    // 7 for the rules (5 are kept for the restore), then the restore's read-back, which shows a run that changed nothing needs no write.
    expect(seen).toHaveLength(8);
    // Each request is sent 20 ms after the one before; only the first may have arrived late.
    expect(seen.at(-1)!.at - seen[0]!.at).toBeGreaterThanOrEqual(6 * 20);
  }, 120_000);
});
