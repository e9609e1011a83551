/**
 * The validating proxy as users run it: `prospectkit-mock --proxy-to URL --record FILE` in front
 * of another `prospectkit-mock` (the "real" deployment here); the recording then loads with
 * `--data`, and getPage answers what the deployment answered. Neither the request lines nor the
 * file hold the key.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deploymentMock, INPUTS, KEYS } from "../verify/support/deployments.js";
import { type CliProcess, startCli } from "./support/cli-process.js";
import { startTarget, withBody } from "./support/target.js";

const KEY = "pk_proxy_cli_key_0123456789";
const PAGE_PATH = "/v0/page_groups/pagegroup_demo/pages/page_demo";

async function get(url: string, path: string): Promise<Record<string, any>> {
  const response = await fetch(`${url}${path}`, { headers: { "x-api-key": KEY } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, any>;
}

describe("prospectkit-mock --proxy-to --record, then --data", () => {
  let deployment: CliProcess;
  let dir: string;
  beforeAll(async () => {
    deployment = await startCli(["--port", "0", "--api-key", KEY]);
    dir = mkdtempSync(join(tmpdir(), "prospectkit-record-"));
  });
  afterAll(async () => {
    await deployment?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it("the recording loads with --data and getPage answers what the deployment answered; no key in the file or the lines", async () => {
    const file = join(dir, "recorded.json");
    const proxy = await startCli(["--port", "0", "--no-demo", "--proxy-to", deployment.url, "--record", file]);
    let seen: Record<string, any>;
    try {
      expect(proxy.stdout()).toContain(`Proxy         /v0 operations go to ${deployment.url}`);
      expect(proxy.stdout()).toContain(`Recording     what the target answers, to ${file}`);
      seen = await get(proxy.url, PAGE_PATH);
      await proxy.waitFor(`GET ${PAGE_PATH} 200`);
      // The deployment keeps the contract: no violation is printed.
      expect(proxy.stdout()).not.toContain("VIOLATES");
    } finally {
      await proxy.stop();
    }
    const recorded = readFileSync(file, "utf8");
    expect(recorded).not.toContain(KEY);
    expect(proxy.stdout().split("Ctrl+C stops.\n")[1]).not.toContain(KEY);

    const replay = await startCli(["--port", "0", "--no-demo", "--api-key", KEY, "--data", file]);
    try {
      const again = await get(replay.url, PAGE_PATH);
      const comparable = ({ createdAt: _c, tenantId: _t, publishedVersion: { publishedAt: _p, ...version }, ...page }: Record<string, any>) => ({
        ...page,
        version,
      });
      expect(comparable(again)).toEqual(comparable(seen));
    } finally {
      await replay.stop();
    }
  });
});

describe("issue 40, item 4: a recording of a target that breaks the contract still loads with --data", () => {
  it.each<[string, (body: any) => unknown, RegExp]>([
    [
      "customName: 42 (left out)",
      (body) => ({ ...body, customName: 42 }),
      /Recording \S+: left out the answer's \/customName of getPage page_v: the proxy flagged it/,
    ],
    [
      "pageGroupId: 7 (the exchange skipped)",
      (body) => ({ ...body, pageGroupId: 7 }),
      /Recording \S+: skipped a getPage answer: it needs what the proxy flagged/,
    ],
  ])("a target answering %s: the report says so, and --data rec.json --no-demo starts and stops with exit 0", async (_, breaking, report) => {
    const dir = mkdtempSync(join(tmpdir(), "prospectkit-record-flagged-"));
    const target = await startTarget(deploymentMock(), (request, response) =>
      response.status === 200 && request.method === "GET" ? withBody(response, breaking) : response,
    );
    try {
      const file = join(dir, "rec.json");
      const proxy = await startCli(["--port", "0", "--no-demo", "--proxy-to", target.url, "--record", file]);
      try {
        // A subscription the target answers as it should: the file is written whatever the page's fate.
        const patched = await fetch(`${proxy.url}/v0/webhook_subscriptions/${INPUTS.subscription}`, {
          method: "PATCH",
          headers: { "x-api-key": KEYS.a, "content-type": "application/json" },
          body: "{}",
        });
        expect(patched.status).toBe(200);
        const page = await fetch(`${proxy.url}/v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId}`, {
          headers: { "x-api-key": KEYS.a },
        });
        expect(page.status).toBe(200);
        await proxy.waitFor(`GET /v0/page_groups/${INPUTS.page.pageGroupId}/pages/${INPUTS.page.pageId} 200`);
        expect(proxy.stdout()).toContain("VIOLATES: body /");
      } finally {
        expect(await proxy.stop()).toBe(0);
      }
      const replay = await startCli(["--port", "0", "--no-demo", "--api-key", KEYS.a, "--data", file]);
      expect(replay.stderr()).toBe("");
      const subscription = await fetch(`${replay.url}/v0/webhook_subscriptions/${INPUTS.subscription}`, {
        method: "PATCH",
        headers: { "x-api-key": KEYS.a, "content-type": "application/json" },
        body: "{}",
      });
      expect(subscription.status).toBe(200);
      expect(await replay.stop()).toBe(0);
      // The recording's report names what it left out or skipped.
      expect(proxy.stdout()).toMatch(report);
    } finally {
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
