/**
 * The mock's one handler: every adapter (`api.fetch`, the MSW handlers, the Node server) hands it
 * a {@link MockRequest} and gets back a {@link MockResponse}, or `null` for a dropped connection.
 * The handler is its steps (`steps/`, one concern each), and {@link createHandler} is the one place
 * their order is written: the steps every request takes, then those of its part of the mock (the
 * API's, or the mock's own: the control API, the documents, the console). An adapter adds its own
 * steps where it says (the server's request line and `Host`/`Origin` checks at the edge, the
 * validating proxy in the API's part, before the key check) and its own routes (the console's).
 * It never rejects: a step that throws is answered 500 (`steps/guard.ts`).
 * @module
 */
import type { FaultRegistry } from "../faults/faults.js";
import type { LoggedRequest } from "../observe/request-log.js";
import type { Store } from "../state/store.js";
import { compose, Exchange, type Step } from "./exchange.js";
import { render } from "./reply.js";
import type { MockRequest, MockResponse } from "./request.js";
import type { Route } from "./route.js";
import { auth } from "./steps/auth.js";
import { body } from "./steps/body.js";
import { type Durability, durability } from "./steps/durability.js";
import { bodyFaults, faults } from "./steps/faults.js";
import { guard } from "./steps/guard.js";
import { latency } from "./steps/latency.js";
import { log } from "./steps/log.js";
import { requestId } from "./steps/request-id.js";
import { noRoute, routing } from "./steps/routing.js";
import { run } from "./steps/run.js";
import { writes } from "./steps/writes.js";

/** What the steps use of the mock. */
export interface HandlerCore {
  /** The current state. */
  store(): Store;
  /** The path of the mock's base URL ("" for a host root): routes are matched below it. */
  readonly basePath: string;
  /** The mock's route table: the API's operations, the control API, the documents. */
  readonly routes: readonly Route[];
  /** A new `req_` ID for the time `atMs`. */
  newRequestId(atMs: number): string;
  /** The faults armed for API requests. */
  readonly faults: Pick<FaultRegistry, "take" | "takeByBody">;
  /** Keeps an answered request in the log and tells the live feed (`wrote`: it changed its caller's data). */
  record(entry: LoggedRequest, wrote: boolean): void;
  /** The state file's durability, while one is attached (the server's `--state`). */
  durability(): Durability | null;
}

/** What an adapter adds to the handler. */
export interface HandlerAdapter {
  /** Its routes, in front of the mock's (the server's console). */
  readonly routes?: readonly Route[];
  /** Its steps at the edge, before routing (the server's request line, then its `Host`/`Origin` checks and CORS). */
  readonly edge?: readonly Step[];
  /** Its steps in the API's part, before the key check (the validating proxy). */
  readonly api?: readonly Step[];
  /** What every API request waits, in milliseconds (the server's `--latency`). */
  readonly latencyMs?: number;
}

/** The mock's handler: an answer, or `null` for a dropped connection. Never rejects. */
export type MockHandler = (request: MockRequest) => Promise<MockResponse | null>;

/**
 * Creates a handler: the order of its steps.
 * @param core - the mock's state, request IDs, faults, request log and durability
 * @param adapter - what the adapter adds: its routes and steps, a latency
 * @returns the handler
 */
export function createHandler(core: HandlerCore, adapter: HandlerAdapter = {}): MockHandler {
  const routes = [...(adapter.routes ?? []), ...core.routes];
  const api = compose([
    latency(adapter.latencyMs ?? 0),
    faults(core.faults),
    ...(adapter.api ?? []),
    auth,
    noRoute,
    body,
    bodyFaults(core.faults),
    writes(core.store),
    durability(core.durability),
    run(routes),
  ]);
  const own = compose([auth, noRoute, body, durability(core.durability), run(routes)]);
  const steps = compose([
    requestId(core.newRequestId),
    log(core.record),
    ...(adapter.edge ?? []),
    guard,
    routing(routes, { api, control: own, document: own, console: own }),
  ]);
  return async (request) => {
    const x = new Exchange(request, core.store(), core.basePath);
    await steps(x);
    return x.reply == null ? null : render(x.reply, request.method, x.headers);
  };
}
