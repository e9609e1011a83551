/**
 * `createMockApi`: the reference implementation of the API on in-memory state, answered by one
 * handler over one route table (the API's operations, the control API, the built-in inbox, the
 * OpenAPI documents). `api.fetch` and `api.handle` are its fetch adapter. Web standards only
 * (Request, Response, URL, Web Crypto): it runs in Node, browsers, Deno, Bun and workers, and
 * never needs msw. The standalone server builds on {@link createMock}, which gives it the mock's
 * {@link MockHost} beside the public `MockApi`.
 * @module
 */

import type * as z from "zod/mini";
import { controlRoute } from "./control/route.js";
import { CONTROL_ROUTES } from "./control/routes.js";
import { untilAborted } from "./lib/abort.js";
import type { MockApi, Outcome } from "./mock-api.js";
import { documentRoutes } from "./openapi/routes.js";
import { apiRoutes, MOCK_OPERATIONS } from "./operations/index.js";
import { type MockApiOptions, resolveOptions } from "./options.js";
import { type AuthResult, authenticate } from "./pipeline/auth.js";
import { createHandler, type HandlerAdapter, type HandlerCore, type MockHandler } from "./pipeline/handler.js";
import { fromFetchRequest, toFetchResponse } from "./pipeline/request.js";
import { MockRuntime, type StateFileHooks } from "./runtime.js";
import type { SavedState } from "./state/persist/saved-state.js";

export type { IsolatedTenant, MockApi, MockTenant, MockWebhooks, Outcome, WebhookScope } from "./mock-api.js";
export type { StateFileHooks } from "./runtime.js";

/**
 * What the adapters built on a mock use of it besides its public `MockApi`: the standalone
 * server (a handler with its console's routes, its edge steps, the validating proxy's step and a
 * latency; request IDs for what node's parser refuses), its state file (the whole state saved and
 * loaded, every change journaled, every write kept) and its console (whom a key belongs to).
 * Internal: {@link createMock} hands it to whoever creates the mock; nothing public leads to it.
 */
export interface MockHost {
  /** The mock, as its users see it. */
  readonly api: MockApi;
  /** A handler over the mock's routes, with what an adapter adds (`HandlerAdapter`). */
  handler(adapter?: HandlerAdapter): MockHandler;
  /** The tenant of a request's `x-api-key`, or why there is none. */
  authenticate(headers: Pick<Headers, "get">): AuthResult;
  /** A new `req_` ID from the mock's seeded source, for now. */
  newRequestId(): string;
  /** The whole state, API keys and webhook deliveries included, as live records: serialize it before the next write. */
  save(): SavedState;
  /**
   * Replaces the whole state (keys and webhook deliveries included) with a validated saved one;
   * the journal hears nothing of it. The state it replaces is let go whole: a request still
   * holding a part of it changes nothing that is kept.
   * @throws {MockStateError} for a collection holding one record twice (the state is then the loaded one, half filled: load another)
   */
  load(saved: SavedState): void;
  /** Attaches a state file (its journal and durability), or detaches it (`null`). */
  attach(file: StateFileHooks | null): void;
}

/**
 * Creates a mock of the whole API on in-memory state. Two mocks never share anything.
 *
 * @param options - API keys, seed, clock, base URL, fixtures, webhook delivery
 * @returns the mock
 * @throws {TypeError} for a malformed option (a bad base URL, key or clock)
 * @example
 * ```ts
 * import { createMockApi } from "prospectkit/mock";
 * import { createClient } from "prospectkit";
 *
 * const api = createMockApi({ apiKeys: ["test_key"], seed: 1, now: () => new Date("2024-02-29T12:00:00.000Z") });
 * const client = createClient({ apiKey: "test_key", baseUrl: api.baseUrl, fetch: api.fetch });
 * ```
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  return createMock(options).api;
}

/**
 * Creates a mock and its {@link MockHost} (the standalone server's way in).
 * @param options - as {@link createMockApi}'s
 * @param adapter - what the adapter adds to the mock's documents: the fields it attaches to a request's log entry (`Exchange.set`)
 * @throws {TypeError} for a malformed option
 */
export function createMock(options: MockApiOptions = {}, adapter: { readonly logFields?: z.ZodMiniObject } = {}): MockHost {
  const resolved = resolveOptions(options);
  const runtime = new MockRuntime(resolved);
  const { deliveries } = runtime;
  const current = () => runtime.store;

  const api: MockApi = {
    async fetch(input, init) {
      const request = new Request(input, init);
      if (request.signal.aborted) throw request.signal.reason;
      // Without a caller's signal (none in `init`, the input not a Request) nothing can abort: no listener to add and remove.
      const abortable = (init?.signal ?? null) !== null || input instanceof Request;
      const outcome = await (abortable ? untilAborted(handle(request), request.signal) : handle(request));
      if (outcome.kind === "network-error") throw new TypeError("fetch failed: the mock dropped the connection (injected fault)");
      return outcome.response;
    },
    handle: (request) => handle(request),
    state: runtime.state,
    faults: runtime.faults.api,
    requests: runtime.requestLog.api,
    webhooks: {
      list: (scope) => deliveries.list(scope),
      events: (scope) => deliveries.events(scope),
      runDue: (runOptions) => deliveries.runDue(runOptions),
      redeliver: (eventId, scope) => deliveries.redeliver(eventId, scope),
      inFlight: () => deliveries.inFlight(),
    },
    changes: runtime.changes,
    baseUrl: resolved.baseUrl,
    isolate: () => runtime.isolate(),
    tenant: (tenantId) => runtime.scopeOf(tenantId),
    reset: () => runtime.reset(),
  };

  const operations = resolved.operations ?? MOCK_OPERATIONS;
  const core: HandlerCore = {
    store: current,
    basePath: resolved.basePath,
    // The one route table: the API's operations, the control API (the inbox among it), the documents.
    routes: [
      ...apiRoutes(current, operations),
      ...CONTROL_ROUTES.map((route) => controlRoute(route, { api, requestsOf: (tenantId) => runtime.requestsOf(tenantId), inbox: runtime.inbox })),
      ...documentRoutes(
        resolved.baseUrl,
        operations.map(({ row }) => row),
        adapter.logFields,
      ),
    ],
    newRequestId: (atMs) => runtime.newRequestId(atMs),
    faults: runtime.faults,
    record: (entry, wrote) => runtime.record(entry, wrote),
    durability: () => runtime.stateFile?.durability ?? null,
  };
  const handler = createHandler(core);
  const toOutcome = (response: Awaited<ReturnType<MockHandler>>): Outcome =>
    response === null ? { kind: "network-error" } : { kind: "response", response: toFetchResponse(response) };
  const handle = (request: Request): Promise<Outcome> => handler(fromFetchRequest(request)).then(toOutcome);

  return {
    api,
    handler: (adapter) => createHandler(core, adapter),
    authenticate: (headers) => authenticate(current(), headers),
    newRequestId: () => runtime.newRequestId(),
    save: () => runtime.save(),
    load: (saved) => runtime.load(saved),
    attach(file) {
      runtime.stateFile = file;
    },
  };
}
