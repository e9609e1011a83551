/**
 * Runs a bundled scenario in Cloudflare's workerd: a minimal capnp config serves the bundle as a
 * worker module on a loopback socket that the harness opened on port 0 and hands over as a file
 * descriptor (so no fixed port and no race for one), and the harness fetches its one response.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { join } from "node:path";
import { bundleEntry } from "./entries.ts";

/** The export conditions workerd's own bundler (wrangler) resolves packages with. */
export const WORKERD_CONDITIONS = ["workerd", "worker", "browser"];

/**
 * The worker's `fetch()` may reach loopback only: the mock server the scenario calls lives
 * there, and nothing else may be reached.
 */
function capnpConfig(bundle: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .scenarioWorker),
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", http = (), service = "main") ],
);
const scenarioWorker :Workerd.Worker = (
  modules = [ (name = "scenario", esModule = embed ${JSON.stringify(bundle)}) ],
  compatibilityDate = "2025-09-01",
  globalOutbound = "loopback",
);
`;
}

/** A listening loopback socket on an OS-assigned port, to be handed to workerd. */
async function listeningSocket(): Promise<{ port: number; fd: number; close: () => void }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const fd = (server as unknown as { _handle: { fd: number } })._handle.fd;
  if (!(fd > 0)) throw new TypeError("could not read the listening socket's file descriptor");
  return { port: (server.address() as AddressInfo).port, fd, close: () => server.close() };
}

/**
 * Bundles the entry, serves it with workerd and returns the worker's JSON answer.
 *
 * @param bin - the workerd binary
 * @param dir - the consumer project holding the entry
 * @param entry - the worker entry's file name inside `dir`
 * @returns the parsed JSON body the worker answered
 * @throws TypeError when workerd fails or the worker answers anything but 200
 */
export async function runInWorkerd(bin: string, dir: string, entry: string): Promise<unknown> {
  const bundle = await bundleEntry(dir, entry, WORKERD_CONDITIONS);
  const config = `${entry}.capnp`;
  writeFileSync(join(dir, config), capnpConfig(bundle));
  const socket = await listeningSocket();
  let stderr = "";
  const child = spawn(bin, ["serve", config, "--socket-fd", "http=3"], { cwd: dir, stdio: ["ignore", "ignore", "pipe", socket.fd] });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  // workerd holds its own copy of the socket now; the harness must not accept on it.
  socket.close();
  const exited = new Promise<never>((_, reject) =>
    child.on("exit", (code, signal) => reject(new TypeError(`workerd exited early with ${signal ?? code}:\n${stderr}`))),
  );
  try {
    const response = await Promise.race([fetch(`http://127.0.0.1:${socket.port}/`, { signal: AbortSignal.timeout(60_000) }), exited]);
    const body = await response.text();
    if (response.status !== 200) throw new TypeError(`the worker answered ${response.status}:\n${body}\nworkerd stderr:\n${stderr}`);
    return JSON.parse(body) as unknown;
  } finally {
    child.removeAllListeners("exit");
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((done) => child.once("exit", done));
      child.kill("SIGTERM");
      await gone;
    }
  }
}
