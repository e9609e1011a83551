/**
 * The `prospectkit-mock` binary from the build, run as a child process: its banner, its request
 * lines, `--data` loading and its errors, the exits with code 2, and a clean stop on signals.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_API_KEY } from "../../mock/index.js";
import { DEMO_IDS } from "../../mock/server/demo.js";
import { VERSION } from "../../src/version.js";
import { type CliProcess, runCliToExit, startCli } from "./support/cli-process.js";

const running: CliProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((cli) => cli.stop("SIGKILL")));
});

async function start(args: readonly string[]): Promise<CliProcess> {
  const cli = await startCli(["--port", "0", ...args]);
  running.push(cli);
  return cli;
}

function dataFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "pk-data-")), "fixtures.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
}

const get = (cli: CliProcess, path: string, key = DEFAULT_API_KEY) => fetch(`${cli.url}${path}`, { headers: { "x-api-key": key } });

describe("the start banner", () => {
  it("prints the base URL, the development key, the demo IDs and a curl for each operation", async () => {
    const cli = await start([]);
    const banner = cli.stdout();
    expect(cli.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(banner).toContain(`prospectkit-mock ${VERSION} listening on ${cli.url}`);
    expect(banner).toContain(`API key       ${DEFAULT_API_KEY} (the development key`);
    expect(banner).toContain(`${DEMO_IDS.pageGroup} / ${DEMO_IDS.page}`);
    expect(banner).toContain(DEMO_IDS.subscription);
    expect(banner).toContain(`${cli.url}/openapi.json`);
    expect(banner).toMatch(/curl -sS -X POST \S+\/v0\/prospect_logs/);
    expect(banner).toContain(`curl -sS ${cli.url}/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`);
    expect(banner).toContain(`curl -sS -X PATCH ${cli.url}/v0/webhook_subscriptions/${DEMO_IDS.subscription}`);
  });

  it("with --api-key: the given key is printed and accepted, the development key is not", async () => {
    const cli = await start(["--api-key", "pk_live_like_key", "--api-key", "second_key"]);
    expect(cli.stdout()).toContain("API key       pk_live_like_key (and 1 more)");
    expect(cli.stdout()).not.toContain(DEFAULT_API_KEY);
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`, "second_key")).status).toBe(200);
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`)).status).toBe(401);
  });

  it("with PROSPECTKIT_API_KEY: that key is accepted and never printed (the banner and its commands name the variable)", async () => {
    const key = "pk_from_the_environment";
    const cli = await startCli(["--port", "0"], { env: { ...process.env, PROSPECTKIT_API_KEY: key } });
    running.push(cli);
    expect(cli.stdout()).toContain("API key       from $PROSPECTKIT_API_KEY (not printed)");
    expect(cli.stdout()).toContain(`-H "x-api-key: $PROSPECTKIT_API_KEY"`);
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`, key)).status).toBe(200);
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`)).status).toBe(401);
    await cli.waitFor("/v0/page_groups");
    expect(cli.stdout() + cli.stderr()).not.toContain(key);
  });

  it("with --api-key and PROSPECTKIT_API_KEY: the command line wins", async () => {
    const cli = await startCli(["--port", "0", "--api-key", "from_the_flag"], { env: { ...process.env, PROSPECTKIT_API_KEY: "from_the_env" } });
    running.push(cli);
    expect(cli.stdout()).toContain("API key       from_the_flag");
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`, "from_the_flag")).status).toBe(200);
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`, "from_the_env")).status).toBe(401);
  });

  it("with --no-demo: no page and no subscription, and placeholders instead of IDs", async () => {
    const cli = await start(["--no-demo"]);
    expect(cli.stdout()).toContain("Page          none yet");
    expect(cli.stdout()).toContain("/v0/page_groups/<page_group_id>/pages/<page_id>");
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`)).status).toBe(404);
  });
});

describe("one line per request", () => {
  it("method, path (no query), status and time; never the API key", async () => {
    const cli = await start(["--api-key", "secret_key_value"]);
    await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}?api_key=secret_key_value`, "secret_key_value");
    await get(cli, "/v0/nothing", "wrong_secret_key");
    await cli.waitFor("/v0/nothing 401");
    const lines = cli.stdout().split("\n");
    expect(lines).toContainEqual(
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} GET \/v0\/page_groups\/pagegroup_demo\/pages\/page_demo 200 \d+\.\d ms$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/ GET \/v0\/nothing 401 /));
    const afterBanner = cli.stdout().slice(cli.stdout().indexOf("Ctrl+C"));
    expect(afterBanner).not.toContain("secret_key_value");
    expect(afterBanner).not.toContain("wrong_secret_key");
  });

  it("--quiet prints none", async () => {
    const cli = await start(["--quiet"]);
    const before = cli.stdout();
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`)).status).toBe(200);
    expect(await cli.stop("SIGTERM")).toBe(0);
    expect(cli.stdout()).toBe(`${before}prospectkit-mock stopped\n`);
  });

  it("--latency delays every API answer", async () => {
    const cli = await start(["--latency", "60", "--quiet"]);
    const started = performance.now();
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });
});

describe("--data FILE", () => {
  const fixtures = {
    pageGroups: [{ id: "pagegroup_site" }],
    pages: [{ id: "page_home", pageGroupId: "pagegroup_site", computedName: "Home" }],
    pageVersions: [{ pageId: "page_home", computedName: "Home page", publish: true }],
    webhookSubscriptions: [{ id: "whsub_data", url: "https://hooks.example.com/in", events: null }],
    prospects: [{ email: "known@example.com", name: "Known" }],
    prospectLogs: [{ source: "import", payload: { row: 1 }, email: "known@example.com" }],
  };

  it("loads the fixtures at start, and again after a reset", async () => {
    const cli = await start(["--no-demo", "--data", dataFile(fixtures)]);
    expect(cli.stdout()).toContain("pagegroup_site / page_home");
    expect(cli.stdout()).toContain("whsub_data");
    const page = await (await get(cli, "/v0/page_groups/pagegroup_site/pages/page_home")).json();
    expect(page).toMatchObject({ computedName: "Home page", publishedVersion: { versionNumber: 1 } });
    await fetch(`${cli.url}/__mock/reset`, { method: "POST", headers: { "x-api-key": DEFAULT_API_KEY } });
    const logs = await (await get(cli, "/__mock/prospect_logs")).json();
    expect(logs.data).toHaveLength(1);
  });

  it("loads beside the demo data", async () => {
    const cli = await start(["--data", dataFile(fixtures)]);
    expect((await get(cli, "/v0/page_groups/pagegroup_site/pages/page_home")).status).toBe(200);
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`)).status).toBe(200);
  });

  it.each([
    ["a missing file", () => "/nonexistent/fixtures.json", /^prospectkit-mock: cannot read --data \/nonexistent\/fixtures\.json: no such file\n$/],
    ["a file that is not JSON", () => dataFile("{ pages: [] }"), /^prospectkit-mock: --data \S+ is not valid JSON: .+\n$/],
    ["an unknown top-level list", () => dataFile({ page: [] }), /^prospectkit-mock: --data \S+: \/page: is not a known field\n$/],
    [
      "a field of the wrong type",
      () => dataFile({ pages: [{ customName: 42 }] }),
      /^prospectkit-mock: --data \S+: \/pages\/0\/customName: must be a string\n$/,
    ],
    [
      "every failing field counted",
      () => dataFile({ pages: [{ customName: 42, computedName: false }] }),
      /: \/pages\/0\/customName: must be a string \(and 1 more problem\)\n$/,
    ],
    [
      "a reference to a missing page group",
      () => dataFile({ pages: [{ pageGroupId: "pagegroup_nope" }] }),
      /: \/pages\/0\/pageGroupId: pageGroupId names no page group loaded before it\n$/,
    ],
    [
      "publishing without a computed name",
      () => dataFile({ pages: [{ id: "p" }], pageVersions: [{ pageId: "p", publish: true }] }),
      /: \/pageVersions\/0\/publish: a version is processed before it is published: give its computedName\n$/,
    ],
    [
      "an ID the demo data already uses",
      () => dataFile({ pageGroups: [{ id: DEMO_IDS.pageGroup }] }),
      /: \/pageGroups\/0\/id: .*already taken \(the demo data is loaded first; --no-demo leaves it out\)\n$/,
    ],
  ])("%s is one line on stderr and exit code 2", async (_, path, message) => {
    const exit = await runCliToExit(["--port", "0", "--data", path()]);
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
    expect(exit.stdout).toBe("");
  });
});

describe("exit code 2 with one line for every usage error", () => {
  it.each([
    [
      "an unknown flag, with the closest known one",
      ["--prot", "4010"],
      "prospectkit-mock: Unknown option '--prot'. Did you mean --port? (see --help)\n",
    ],
    ["a mistyped command", ["verfy"], "prospectkit-mock: Unexpected argument 'verfy'. Did you mean verify? (see --help)\n"],
    ["a flag without its value", ["--port"], "prospectkit-mock: Option '-p, --port <value>' argument missing (see --help)\n"],
    ["a stray argument", ["serve"], "prospectkit-mock: Unexpected argument 'serve' (see --help)\n"],
    ["a port that is not a number", ["--port", "http"], 'prospectkit-mock: --port must be a whole number from 0 to 65535, not "http"\n'],
    ["a port out of range", ["--port", "65536"], 'prospectkit-mock: --port must be a whole number from 0 to 65535, not "65536"\n'],
    ["a negative latency", ["--latency=-5"], 'prospectkit-mock: --latency must be milliseconds from 0 to 600000, not "-5"\n'],
    [
      "an API key with a space",
      ["--port", "0", "--api-key", "has space"],
      "prospectkit-mock: --api-key: /apiKeys/0: must match the pattern /^[\\x21-\\x7e]{1,1024}$/\n",
    ],
    [
      "an address that is not local",
      ["--port", "0", "--host", "192.0.2.1"],
      "prospectkit-mock: cannot listen on 192.0.2.1:0: no such local address (try --host 127.0.0.1)\n",
    ],
  ])("%s", async (_, args, stderr) => {
    const exit = await runCliToExit(args);
    expect({ code: exit.code, stderr: exit.stderr, stdout: exit.stdout }).toEqual({ code: 2, stderr, stdout: "" });
  });

  it("an API key in PROSPECTKIT_API_KEY the mock refuses: the variable is named, the key is not printed", async () => {
    const exit = await runCliToExit(["--port", "0"], undefined, { ...process.env, PROSPECTKIT_API_KEY: "bad key\u0001secret" });
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(/^prospectkit-mock: PROSPECTKIT_API_KEY: .+\n$/);
    expect(exit.stderr + exit.stdout).not.toContain("secret");
  });

  it("a port in use", async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, "127.0.0.1", done));
    const { port } = blocker.address() as { port: number };
    try {
      const exit = await runCliToExit(["--port", String(port)]);
      expect(exit.code).toBe(2);
      expect(exit.stderr).toBe(
        `prospectkit-mock: port ${port} is already in use on 127.0.0.1 (choose another with --port, or --port 0 for a free one)\n`,
      );
    } finally {
      blocker.close();
    }
  });
});

describe("--help and --version", () => {
  it.each([
    ["--help", /^Usage: prospectkit-mock \[options\]\n[\s\S]*--no-demo[\s\S]*--latency MS/],
    ["-h", /^Usage: prospectkit-mock/],
    ["--version", new RegExp(`^${VERSION.replaceAll(".", "\\.")}\\n$`)],
  ])("%s prints and exits 0", async (flag, stdout) => {
    const exit = await runCliToExit([flag]);
    expect(exit.code).toBe(0);
    expect(exit.stdout).toMatch(stdout);
  });
});

describe("a clean stop", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("%s closes the server, even with an open keep-alive connection, and exits 0", async (signal) => {
    const cli = await start([]);
    expect((await get(cli, `/v0/page_groups/${DEMO_IDS.pageGroup}/pages/${DEMO_IDS.page}`)).status).toBe(200);
    expect(await cli.stop(signal)).toBe(0);
    expect(cli.stdout()).toMatch(/prospectkit-mock stopped\n$/);
    expect(cli.stderr()).toBe("");
    await expect(fetch(cli.url)).rejects.toThrow(TypeError);
  });
});
