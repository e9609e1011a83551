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
import { type CliProcess, startCli } from "./support/cli-process.js";

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
