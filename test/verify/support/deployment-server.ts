/**
 * A deployment over real HTTP for the built `prospectkit-mock verify`: a `node:http` server whose
 * every request goes through `handle` (a mutant, a recorder, a network fault, or nothing) to the
 * mock in process (`api.fetch`). The answer goes back as the handler gave it: status, headers
 * (HEAD keeps the `content-length` of its GET) and body; or, when the handler says `"reset"`, the
 * connection is cut without an answer.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { MockApi } from "../../../mock/index.js";

/** Hands a request on to the mock. */
export type Next = (request: Request) => Promise<Response>;

/** What stands between the network and the mock: an answer, or `"reset"` to cut the connection without one. */
export type Handle = (request: Request, next: Next) => Promise<Response | "reset">;

/** A running deployment. */
export interface DeploymentServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts a deployment server.
 * @param api - the mock behind it
 * @param handle - what every request goes through (default: straight to the mock)
 */
export async function startDeployment(api: MockApi, handle: Handle = (request, next) => next(request)): Promise<DeploymentServer> {
  const next: Next = (request) => api.fetch(request);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    // The body is read whole: its length and framing headers stay behind, so a mutant may change the body.
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === "string" && !["content-length", "transfer-encoding", "connection", "host"].includes(name)) headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(`${api.baseUrl}${req.url}`, { method: req.method!, headers, ...(body && { body }) });
    const response = await handle(request, next);
    if (response === "reset") return void req.socket.destroy();
    const bytes = Buffer.from(await response.arrayBuffer());
    const out = Object.fromEntries([...response.headers].filter(([name]) => name !== "content-length" || req.method === "HEAD"));
    res.writeHead(response.status, req.method === "HEAD" ? out : { ...out, "content-length": String(bytes.byteLength) });
    res.end(req.method === "HEAD" ? undefined : bytes);
  });
  server.keepAliveTimeout = 1000;
  await once(server.listen(0, "127.0.0.1"), "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
