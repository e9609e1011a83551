/**
 * Starts the mock server (mock-server.ts) in the consumer project with the matrix's Node 24 and
 * reads the context line it prints, for the scenarios to call.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { compileIntoProject } from "./entries.ts";
import type { ServerContext } from "./mock-server.ts";

/** A running mock server. */
export interface RunningServer {
  readonly context: ServerContext;
  /** Stops the server and waits for its process to end. */
  close(): Promise<void>;
}

/**
 * Starts the mock server from the packed package.
 *
 * @param node - the Node binary to run it with
 * @param dir - the consumer project (with the tarball installed)
 * @returns the server's context and a way to stop it
 * @throws TypeError when the server exits or prints no context within 30 s
 */
export async function startServer(node: string, dir: string): Promise<RunningServer> {
  compileIntoProject(dir, "mock-server");
  writeFileSync(join(dir, "mock-server.entry.mjs"), `import * as mock from "prospectkit/mock/core";\nimport { serve } from "./mock-server.mjs";\nawait serve(mock);\n`);
  const child = spawn(node, ["mock-server.entry.mjs"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const firstLine = new Promise<string>((resolveLine, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once("line", resolveLine);
    void exited.then(() => reject(new TypeError(`the mock server exited with ${child.exitCode ?? child.signalCode}:\n${stderr}`)));
    setTimeout(() => reject(new TypeError(`the mock server printed no context within 30 s:\n${stderr}`)), 30_000).unref();
  });
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  try {
    return { context: JSON.parse(await firstLine) as ServerContext, close };
  } catch (error) {
    await close();
    throw error;
  }
}
