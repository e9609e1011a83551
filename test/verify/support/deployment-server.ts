/**
 * A deployment for the tests of `verify`: every request goes through `handle` (a mutant, a
 * recorder, a network fault, or nothing) to the mock in process (`api.fetch`), and its answer comes
 * back as a `node:http` server would carry it: status, headers (`content-length` the body's, HEAD
 * keeping the one its handler gave and no body); or, when the handler says `"reset"`, the
 * connection is cut without an answer. Reached in process (`deploymentInProcess`, what the mutation test
 * hands `runVerify`) or over real HTTP (`startDeployment`, for the built CLI): the same answers.
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

/** The request headers a server reads as framing: the body is read whole, so a mutant may change it. */
const FRAMING = ["content-length", "transfer-encoding", "connection", "host"];

/** The answer to a request as the wire carries it: its body's bytes, `content-length` their count (HEAD: the handler's, no body). */
async function answer(
  api: MockApi,
  handle: Handle,
  request: Request,
): Promise<{ status: number; headers: Record<string, string>; body?: Buffer } | "reset"> {
  const response = await handle(request, (forwarded) => api.fetch(forwarded));
  if (response === "reset") return response;
  const bytes = Buffer.from(await response.arrayBuffer());
  const head = request.method === "HEAD";
  const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== "content-length" || head));
  return head
    ? { status: response.status, headers }
    : { status: response.status, headers: { ...headers, "content-length": String(bytes.byteLength) }, body: bytes };
}

/** A request with the framing headers a server would not hand on. */
function unframed(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of FRAMING) headers.delete(name);
  return new Request(request, { headers });
}

/**
 * A deployment reached in process: a `fetch` whose answers are those the server would send.
 * @param api - the mock behind it
 * @param handle - what every request goes through (default: straight to the mock)
 */
export function deploymentInProcess(api: MockApi, handle: Handle = (request, next) => next(request)): typeof fetch {
  return async (input, init) => {
    const sent = await answer(api, handle, unframed(new Request(input, init)));
    // A cut connection, as fetch reports one.
    if (sent === "reset") throw new TypeError("fetch failed", { cause: Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }) });
    const { status, headers, body } = sent;
    // A body-less status (204, 304) takes no body, not even an empty one.
    return new Response(body === undefined || body.byteLength === 0 ? null : new Uint8Array(body), { status, headers });
  };
}

/**
 * Starts a deployment server.
 * @param api - the mock behind it
 * @param handle - what every request goes through (default: straight to the mock)
 */
export async function startDeployment(api: MockApi, handle: Handle = (request, next) => next(request)): Promise<DeploymentServer> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string" && !FRAMING.includes(name)) headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(`${api.baseUrl}${req.url}`, { method: req.method!, headers, ...(body && { body }) });
    const sent = await answer(api, handle, request);
    if (sent === "reset") return void req.socket.destroy();
    res.writeHead(sent.status, sent.headers);
    res.end(sent.body);
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
