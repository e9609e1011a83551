/**
 * Sends a `Request` over a plain `node:http` keep-alive agent, byte for byte: unlike fetch, it
 * passes header values with obs-text bytes (0x80 to 0xff) as they are, so hostile headers reach
 * the server instead of being refused by the client.
 */
import { Agent, request as httpRequest } from "node:http";

/** What came back. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * Creates a sender with its own keep-alive agent.
 * @param maxSockets - connections kept open to the server
 */
export function createRawSender(maxSockets: number): { send(request: Request): Promise<RawAnswer>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    async send(request) {
      const url = new URL(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : Buffer.from(await request.arrayBuffer());
      // A raw header list gets no automatic Host from node:http.
      const headers: [string, string][] = [["host", url.host], ...request.headers];
      if (body !== undefined) headers.push(["content-length", String(body.length)]);
      return new Promise((resolve, reject) => {
        const outgoing = httpRequest(
          { agent, host: url.hostname, port: url.port, method: request.method, path: url.pathname + url.search, headers: headers.flat() },
          (incoming) => {
            const chunks: Buffer[] = [];
            incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
            incoming.on("end", () =>
              resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString("utf8") }),
            );
            incoming.on("error", reject);
          },
        );
        outgoing.on("error", reject);
        outgoing.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
