/**
 * A gateway in front of the standalone mock server, for the faults the mock itself does not
 * inject: what a proxy or a newer API version does to an answer the mock produced (a
 * `Retry-After` turned into an HTTP date, a wrong content type, an empty body, a field added or
 * removed). Every request still reaches the real server (so its request log and its state see
 * it); only the answer on the way back is rewritten, for the next N matching calls.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** An answer as the gateway passes it on. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Changes an answer on its way back to the client. */
export type Rewrite = (answer: Answer) => Answer;

/** A gateway listening on loopback. */
export interface Gateway {
  /** `http://127.0.0.1:<port>`: the base URL to give the client instead of the server's. */
  readonly url: string;
  /**
   * Rewrites the answers of the next `times` requests whose method and path match.
   * @param match - which requests (method and path, e.g. `POST /v0/prospect_logs`), or `"all"`
   */
  rewrite(rewrite: Rewrite, options?: { match?: RegExp | "all"; times?: number }): void;
  close(): Promise<void>;
}

// Hop-by-hop or recomputed: never copied from one leg to the other.
const SKIPPED = new Set(["host", "connection", "keep-alive", "transfer-encoding", "content-length"]);

function copyHeaders(entries: Iterable<[string, string | string[] | undefined]>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (value !== undefined && !SKIPPED.has(name.toLowerCase())) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts a gateway that forwards every request to `upstream`.
 * @param upstream - the server's base URL
 * @returns the running gateway
 */
export async function startGateway(upstream: string): Promise<Gateway> {
  const armed: { rewrite: Rewrite; match: RegExp | "all"; remaining: number }[] = [];
  const take = (line: string): Rewrite | undefined => {
    const entry = armed.find((a) => a.match === "all" || a.match.test(line));
    if (entry === undefined) return undefined;
    if (--entry.remaining === 0) armed.splice(armed.indexOf(entry), 1);
    return entry.rewrite;
  };
  const server = createServer((request, response) => {
    void (async () => {
      const method = request.method ?? "GET";
      const body = await readAll(request);
      // A dropped upstream connection (the mock's network-error fault) drops this one too.
      const upstreamResponse = await fetch(upstream + (request.url ?? "/"), {
        method,
        headers: copyHeaders(Object.entries(request.headers)),
        ...(body.length > 0 && { body: new Uint8Array(body) }),
        redirect: "manual",
      });
      let answer: Answer = {
        status: upstreamResponse.status,
        headers: copyHeaders(upstreamResponse.headers.entries()),
        body: await upstreamResponse.text(),
      };
      const rewrite = take(`${method} ${(request.url ?? "/").split("?")[0]}`);
      if (rewrite) answer = rewrite(answer);
      response.writeHead(answer.status, { ...answer.headers, "content-length": String(Buffer.byteLength(answer.body)) });
      response.end(answer.body);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rewrite(rewrite, { match = "all", times = 1 } = {}) {
      armed.push({ rewrite, match, remaining: times });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Rewrites the JSON body (the answer must be JSON). */
export function editJson(edit: (body: Record<string, unknown>) => Record<string, unknown>): Rewrite {
  return (answer) => ({ ...answer, body: JSON.stringify(edit(JSON.parse(answer.body) as Record<string, unknown>)) });
}
