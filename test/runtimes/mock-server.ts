/**
 * The mock server every runtime's scenario calls: run by the matrix's Node 24 in the consumer
 * project, on loopback port 0. It seeds one published page and one webhook subscription, then
 * prints ONE line of JSON, the scenario's server context (`baseUrl`, `apiKey` and the IDs).
 *
 * Interim: it serves `createMockApi(...).fetch` from the packed `prospectkit/mock` over
 * `node:http` itself, with CORS for the browser. Once `prospectkit/mock/server` exists, this file
 * calls `startMockServer({ port: 0, host: "127.0.0.1", ... })` instead and keeps its output.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type * as Mock from "../../mock/index.ts";

/** What the server tells the harness, which passes it on to every scenario. */
export interface ServerContext {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly pageGroupId: string;
  readonly pageId: string;
  readonly subscriptionId: string;
}

const API_KEY = "pk_test_runtime_matrix";

// Any origin may call, as a browser page on another loopback port does.
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, PATCH, OPTIONS",
  "access-control-expose-headers": "x-request-id, idempotent-replayed, retry-after, retry-after-ms",
  "access-control-max-age": "600",
};

async function toRequest(request: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = request.method ?? "GET";
  const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
  return new Request(new URL(request.url ?? "/", origin), { method, headers, body });
}

async function send(response: Response, out: ServerResponse): Promise<void> {
  const headers: Record<string, string> = { ...CORS };
  response.headers.forEach((value, name) => (headers[name] = value));
  out.writeHead(response.status, headers).end(Buffer.from(await response.arrayBuffer()));
}

/**
 * Starts the server and prints its context line.
 *
 * @param mock - the packed `prospectkit/mock`
 */
export async function serve(mock: typeof Mock): Promise<void> {
  let fetchFromMock: (request: Request) => Promise<Response> = () => Promise.reject(new TypeError("not ready"));
  const server = createServer((request, out) => {
    if (request.method === "OPTIONS") {
      const allow = request.headers["access-control-request-headers"] ?? "content-type, x-api-key";
      out.writeHead(204, { ...CORS, "access-control-allow-headers": allow }).end();
      return;
    }
    toRequest(request, baseUrl)
      .then(fetchFromMock)
      .then((response) => send(response, out))
      .catch(() => out.destroy());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api = mock.createMockApi({ apiKeys: [API_KEY], seed: 1, baseUrl });
  fetchFromMock = (request) => api.fetch(request);
  const page = api.state.pages.create({ computedName: "Pricing" });
  const version = api.state.pageVersions.create({ pageId: page.id });
  api.state.pageVersions.process(version.id, { computedName: "Pricing" });
  api.state.pageVersions.publish(version.id);
  const subscription = api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/prospectkit", events: ["page.version.published"] });

  const context: ServerContext = { baseUrl, apiKey: API_KEY, pageGroupId: page.pageGroupId, pageId: page.id, subscriptionId: subscription.id };
  console.log(JSON.stringify(context));
  process.once("SIGTERM", () => server.close(() => process.exit(0)));
}
