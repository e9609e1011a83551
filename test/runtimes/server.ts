/**
 * The mock server every runtime's scenario calls: the REAL standalone server, `startMockServer`
 * from the packed `prospectkit/mock/server`, run by the matrix's Node 24 in the consumer project on
 * loopback port 0. Its own CORS is what lets the Chromium page call it. The harness seeds one
 * published page and one webhook subscription through the server's control API (`/__mock`, as an
 * integrator in any language would) and hands the scenarios the URL, the key and the seeded IDs.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

/** What the harness tells every scenario about the server. */
export interface ServerContext {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly pageGroupId: string;
  readonly pageId: string;
  readonly subscriptionId: string;
}

/** A running mock server. */
export interface RunningServer {
  readonly context: ServerContext;
  /** Stops the server and waits for its process to end. */
  close(): Promise<void>;
}

const API_KEY = "pk_test_runtime_matrix";

/** The server process: the packed package's own entry, nothing of ours in between. */
const ENTRY = `import { startMockServer } from "prospectkit/mock/server";
const server = await startMockServer({ port: 0, host: "127.0.0.1", apiKeys: [${JSON.stringify(API_KEY)}], seed: 1 });
console.log(JSON.stringify({ url: server.url }));
process.once("SIGTERM", () => server.close().then(() => process.exit(0)));
`;

/** One control API call; anything but the expected status is an error. */
async function control<T>(baseUrl: string, path: string, status: number, json?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/__mock${path}`, {
    method: "POST",
    headers: { "x-api-key": API_KEY, ...(json !== undefined && { "content-type": "application/json" }) },
    ...(json !== undefined && { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  if (response.status !== status) throw new TypeError(`POST /__mock${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Seeds a published page (computed name "Pricing", no custom name) and a subscription to one kind. */
async function seed(baseUrl: string): Promise<ServerContext> {
  const page = await control<{ pageId: string; pageGroupId: string }>(baseUrl, "/pages", 201, { computedName: "Pricing" });
  const version = await control<{ id: string }>(baseUrl, "/page_versions", 201, { pageId: page.pageId });
  await control(baseUrl, `/page_versions/${version.id}/process`, 200, { computedName: "Pricing" });
  await control(baseUrl, `/page_versions/${version.id}/publish`, 200);
  const subscription = await control<{ id: string }>(baseUrl, "/webhook_subscriptions", 201, {
    url: "https://hooks.example.com/prospectkit",
    events: ["page.version.published"],
  });
  return { baseUrl, apiKey: API_KEY, pageGroupId: page.pageGroupId, pageId: page.pageId, subscriptionId: subscription.id };
}

/**
 * Starts the packed package's mock server and seeds it.
 *
 * @param node - the Node binary to run it with
 * @param dir - the consumer project (with the tarball installed)
 * @returns the server's context and a way to stop it
 * @throws TypeError when the server exits, prints no URL within 30 s, or refuses the seed data
 */
export async function startServer(node: string, dir: string): Promise<RunningServer> {
  writeFileSync(join(dir, "mock-server.entry.mjs"), ENTRY);
  const child = spawn(node, ["mock-server.entry.mjs"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const firstLine = new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolveLine);
    void exited.then(() => reject(new TypeError(`the mock server exited with ${child.exitCode ?? child.signalCode}:\n${stderr}`)));
    setTimeout(() => reject(new TypeError(`the mock server printed no URL within 30 s:\n${stderr}`)), 30_000).unref();
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    const { url } = JSON.parse(await firstLine) as { url: string };
    return { context: await seed(url), close };
  } catch (error) {
    await close();
    throw error;
  }
}
