/**
 * A stand-in for a real deployment behind the validating proxy: a `node:http` server answering
 * from a mock (`api.fetch`), each answer passed through `change` first (to break the contract in
 * known ways). It keeps the `x-api-key` of every request it got, to show the key went through.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { MockApi } from "../../../mock/index.js";

/** A running target. */
export interface Target {
  readonly url: string;
  /** The x-api-key of each request received, in order. */
  readonly keys: (string | undefined)[];
  close(): Promise<void>;
}

/**
 * Starts a target.
 * @param api - the mock that answers
 * @param change - rewrites an answer (default: none)
 */
export async function startTarget(
  api: MockApi,
  change: (request: Request, response: Response) => Promise<Response> | Response = (_, r) => r,
): Promise<Target> {
  const keys: (string | undefined)[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    keys.push(req.headers["x-api-key"] as string | undefined);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const request = new Request(`${api.baseUrl}${req.url}`, { method: req.method!, headers, ...(body && { body }) });
    const response = await change(request.clone(), await api.fetch(request));
    const text = await response.text();
    res.writeHead(response.status, Object.fromEntries([...response.headers].filter(([name]) => name !== "content-length")));
    res.end(text);
  });
  await once(server.listen(0, "127.0.0.1"), "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A copy of a JSON answer with its body changed (and, optionally, its status and headers). */
export async function withBody(
  response: Response,
  change: (body: any) => unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Promise<Response> {
  const body = change(await response.json());
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
  return new Response(JSON.stringify(body), { status: init.status ?? response.status, headers });
}
