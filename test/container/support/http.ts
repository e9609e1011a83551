/** Host ports and plain HTTP to a published port, with any `Host` header. */
import { request } from "node:http";
import { createServer } from "node:net";

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An answer: status, headers and body text. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/**
 * One HTTP request to 127.0.0.1:`port` with exactly these headers (`host` included, which fetch
 * would set itself).
 */
export function http(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: "127.0.0.1", port, method, path, headers: { ...(text !== undefined && { "content-type": "application/json" }), ...headers } },
      (response) => {
        let received = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: received }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(text);
  });
}

/** Waits until the server behind `port` answers (any status), e.g. after a start or restart. */
export async function waitForServer(port: number, timeoutMs = 60_000): Promise<void> {
  let last: unknown;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    try {
      await http(port, "GET", "/openapi.json");
      return;
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new TypeError(`nothing answered on port ${port} within ${timeoutMs} ms: ${String(last)}`);
}
