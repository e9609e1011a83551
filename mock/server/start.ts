/**
 * `startMockServer`: the mock as a real HTTP server on `node:http`, for integrators in any
 * language: the mock's one handler (with the console's routes and the server's `Host` and
 * `Origin` checks) behind the Node adapter, and real webhook delivery.
 * @module
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { consoleRoutes } from "../console/handler.js";
import type { MockApi, MockApiOptions, MockState } from "../core.js";
import { createMock, type MockHost } from "../create-mock-api.js";
import { type AnsweredRequest, answered } from "./answered.js";
import { createDeliveryLoop, type ServerWebhookOptions } from "./delivery.js";
import { createExposure, type ExposureOptions, exposureStep } from "./exposure.js";
import { nodeListener } from "./node.js";
import { ProxyLogSchema, type ProxyOptions, proxyStep } from "./proxy.js";
import { createRawAnswerer } from "./raw-requests.js";
import { openStateFile, type StateFile } from "./state-file/open.js";

/** The port the server listens on when none is given. */
export const DEFAULT_PORT = 4010;

/** The interface the server binds when none is given: loopback only. */
export const DEFAULT_HOST = "127.0.0.1";

/**
 * How long an idle keep-alive connection stays open, in milliseconds: what each answer's
 * `Keep-Alive: timeout=5` says, and when the server closes it (Node adds no margin of its own:
 * `keepAliveTimeoutBuffer: 0`; Node 20, which has no such option, keeps it a second longer).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * How to start the server: where to listen, who may reach it, plus every `createMockApi` option
 * but `baseUrl`. `allowedHosts` and `corsOrigins` widen who may reach it (docs/server.md, "Security").
 */
export interface MockServerOptions extends Omit<MockApiOptions, "baseUrl" | "fixtures" | "webhooks">, ExposureOptions {
  /**
   * Seeds data at start and after every reset, like `createMockApi`'s `fixtures`; it also gets
   * the server's URL, so a subscription can point at the server's own inbox.
   */
  readonly fixtures?: (state: MockState, server: { readonly url: string }) => void;
  /**
   * Webhook delivery. By default the server POSTs every due delivery to its subscription's URL
   * (at most 8 at once, 15 s per attempt, the real retry schedule). `deliver: false` records
   * events without sending; `timeScale: 3600` runs an hour of the retry schedule per second;
   * `onAttempt` sees each attempt as it ends.
   */
  readonly webhooks?: ServerWebhookOptions;
  /** Default `4010`; `0` picks a free port. */
  readonly port?: number;
  /** Default `127.0.0.1` (loopback); `0.0.0.0` exposes the server to the network. */
  readonly host?: string;
  /** Every API request is answered this many milliseconds late (default 0). */
  readonly latencyMs?: number;
  /** Called once per answered request (method, path without query, status, duration); never sees a header. */
  readonly onRequest?: (request: AnsweredRequest) => void;
  /**
   * Keeps the whole state (every tenant, its keys, records, subscriptions with their secrets, and
   * the webhook events and deliveries with their schedule) in this file across restarts: created
   * on first start (seeded by `fixtures`), loaded on later ones (`fixtures` then run only on a
   * reset), kept up to date as requests change it: no write is answered before it is in the file
   * (one that cannot be written is undone and answered 503 `state_not_persisted`). The request
   * log is not kept. See docs/server.md, "State file".
   */
  readonly stateFile?: string;
  /**
   * Told, one line each, of what happens to the state file once the server runs: a write that
   * failed (writes are then refused until one works), writes taken again, a compaction that
   * failed (nothing lost), a stale lock taken over. Default: the line on stderr.
   */
  readonly onStateFileNotice?: (message: string) => void;
  /**
   * Forward the API's operations to a real deployment, checking every request and answer against
   * the API's schemas (the validating proxy: docs/contract-check.md).
   */
  readonly proxy?: ProxyOptions;
}

/** A running server. */
export interface MockServer {
  /** The base URL to call, e.g. `http://127.0.0.1:4010` (give it to any client as its base URL). */
  readonly url: string;
  /** The port listened on (useful with `port: 0`). */
  readonly port: number;
  /** The mock behind the server: seed and inspect its state from Node. */
  readonly api: MockApi;
  /** Stops delivering (attempts in flight are aborted), stops listening and closes every connection, idle or not. */
  close(): Promise<void>;
}

/** The origin clients use: a wildcard address is reached through loopback. */
function originOf(host: string, port: number): string {
  const reachable = host === "0.0.0.0" ? "127.0.0.1" : host === "::" ? "::1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

/**
 * Starts the mock as an HTTP server.
 *
 * @param options - where to listen, the mock's options (`apiKeys`, `seed`, `now`, `fixtures`), a base latency and a request hook
 * @returns the running server
 * @throws {TypeError} for a malformed mock option
 * @throws {StateFileError} when `stateFile` is in use by another server, unreadable, not a valid state (it is left untouched), or cannot be written
 * @throws {Error} the `listen` error (e.g. `EADDRINUSE`) when the port cannot be bound
 * @example
 * ```ts
 * import { startMockServer } from "prospectkit/mock/server";
 *
 * const server = await startMockServer({ port: 0, apiKeys: ["test_key"] });
 * const response = await fetch(`${server.url}/v0/prospect_logs`, {
 *   method: "POST",
 *   headers: { "x-api-key": "test_key", "content-type": "application/json" },
 *   body: JSON.stringify({ source: "crm", payload: {} }),
 * });
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  return (await startServer(options)).server;
}

/**
 * Starts the server and gives its mock's {@link MockHost} beside it (for tests of what the server
 * keeps: its whole saved state).
 * @param options - as {@link startMockServer}'s
 */
export async function startServer(options: MockServerOptions = {}): Promise<{ readonly server: MockServer; readonly mock: MockHost }> {
  const {
    port = DEFAULT_PORT,
    host = DEFAULT_HOST,
    latencyMs = 0,
    onRequest,
    fixtures,
    webhooks,
    allowedHosts,
    corsOrigins,
    stateFile: statePath,
    onStateFileNotice = (message) => void process.stderr.write(`prospectkit-mock: ${message}\n`),
    proxy,
    ...mockOptions
  } = options;
  if (!(Number.isFinite(latencyMs) && latencyMs >= 0)) throw new TypeError("startMockServer: latencyMs must be a number >= 0");
  if (statePath !== undefined && (typeof statePath !== "string" || statePath === ""))
    throw new TypeError("startMockServer: stateFile must name a file");
  const exposure = createExposure({ ...(allowedHosts && { allowedHosts }), ...(corsOrigins && { corsOrigins }) }, host);
  const delivery = createDeliveryLoop(webhooks);
  // Locked and read before listening: a file in use or invalid never gets as far as a port.
  const stateFile: StateFile | undefined = statePath === undefined ? undefined : openStateFile(statePath, onStateFileNotice);
  // Node 24.6 and later (and recent Node 22s) keep an idle connection `keepAliveTimeoutBuffer` (default 1 s) past the timeout the answer advertises.
  const server = createServer({ keepAlive: true, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, keepAliveTimeoutBuffer: 0 });
  let mock: MockHost;
  let url: string;
  try {
    await once(server.listen(port, host), "listening"); // rejects with the listen error (EADDRINUSE, ...)
    url = originOf(host, (server.address() as AddressInfo).port);
    const seeded = url;
    mock = createMock(
      {
        ...mockOptions,
        baseUrl: url,
        webhooks: delivery.mockOptions,
        ...(fixtures !== undefined && { fixtures: (state: MockState) => fixtures(state, { url: seeded }) }),
      },
      // The proxy's fields stand beside a log entry's own: the control document says so, proxy or not.
      { logFields: ProxyLogSchema },
    );
    stateFile?.attach(mock, mockOptions.apiKeys);
  } catch (error) {
    server.close();
    stateFile?.release();
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  const { api } = mock;
  // Deliveries wait while the state file takes no writes (an attempt could not be recorded).
  delivery.start(api.webhooks, stateFile?.writable);
  const handler = mock.handler({
    routes: consoleRoutes(mock),
    edge: [...(onRequest === undefined ? [] : [answered(onRequest)]), exposureStep(exposure)],
    api: proxy === undefined ? [] : [proxyStep(proxy)],
    latencyMs,
  });
  const listener = nodeListener(handler);
  server.on("request", listener);
  // Expect: 100-continue: the listener sends `100 Continue` only if a route asks for the body.
  server.on("checkContinue", listener);
  const raw = createRawAnswerer(handler, mock.newRequestId);
  server.on("clientError", raw.clientError);
  server.on("connect", raw.connect);
  const running: MockServer = {
    url,
    port: bound,
    api,
    close: () =>
      new Promise((resolve) => {
        delivery.stop();
        server.close(() => resolve());
        server.closeAllConnections();
        stateFile?.close();
      }),
  };
  return { server: running, mock };
}
