import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { API_KEY, page, prospectLog, subscription } from "./support/fixtures.js";
import { problem, useServer } from "./support/http-server.js";

const server = useServer();
const root = join(import.meta.dirname, "../..");

/** The first ```ts block under `heading` in README.md, importing the source instead of the package. */
function snippet(heading: string): string {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf(`\n${heading}\n`));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!code) throw new TypeError(`README.md has no ts block under ${heading}`);
  return code.replace('from "prospectkit"', `from ${JSON.stringify(join(root, "src/index.ts"))}`);
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("README: the SDK quick start runs as written", () => {
  it("creates a client from the environment, calls each operation and catches an error", async () => {
    vi.stubEnv("PROSPECTKIT_API_KEY", API_KEY);
    vi.stubEnv("PROSPECTKIT_BASE_URL", `${server.url}/`);
    server.fallback = (request) => {
      if (request.method === "POST") return { status: 201, body: prospectLog };
      if (request.method === "PATCH") return { body: subscription };
      return request.path.endsWith("/page_gone") ? problem(404, "not_found") : { body: page, headers: { "x-request-id": "req_readme" } };
    };
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const file = join(mkdtempSync(join(tmpdir(), "prospectkit-readme-")), "quick-start.ts");
    writeFileSync(file, snippet("## SDK quick start"));
    await import(file);
    expect(log.mock.calls).toEqual([
      [prospectLog.prospectLogId, true],
      ["Pricing", 3, "req_readme"],
      [false],
      ["no such page", expect.stringMatching(/^req_/)],
    ]);
    expect(server.received.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v0/prospect_logs",
      "GET /v0/page_groups/pagegroup_1/pages/page_1",
      "PATCH /v0/webhook_subscriptions/webhooksubscription_1",
      "GET /v0/page_groups/pagegroup_1/pages/page_gone",
    ]);
  });
});
