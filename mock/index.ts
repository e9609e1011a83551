/**
 * prospectkit/mock: the reference implementation of the whole API on in-memory state, as MSW
 * request handlers (`api.handlers`) and as a standard fetch function (`api.fetch`). The handlers
 * are thin adapters over the same framework-free core (`api.handle`); they import only `http`,
 * `HttpResponse` and types from msw, so they work with msw 2 and msw 3. msw is an optional peer
 * dependency that this entry needs (without it, importing this entry throws one error naming
 * `npm install --save-dev msw` and `prospectkit/mock/core`, the same mock without it).
 * @module prospectkit/mock
 */
import type { HttpHandler } from "msw";
import { API_PREFIX, type OperationRow } from "../src/operation-row.js";
import { OPERATION_TABLE } from "../src/operation-table.js";
import { createMockApi as createCoreMockApi, type MockApi, type MockApiOptions } from "./core.js";
import { HttpResponse, http } from "./msw/load.js";

export * from "./core.js";
export {
  type UnhandledFrameArgs,
  type UnhandledFrameDefaults,
  type UnhandledRequestOptions,
  type UnhandledRequestPrint,
  type UnhandledScope,
  type UnhandledStrategy,
  unhandledRequests,
} from "./msw/unhandled.js";

/** A mock with MSW handlers. */
export interface MswMockApi extends MockApi {
  /**
   * One handler per operation (override one with `server.use(...)`), then a fallback for every
   * other request under `/v0` (404 unknown route, 405 wrong method with `Allow`, 401 first).
   * Only requests to the mock's `baseUrl` are intercepted.
   */
  readonly handlers: HttpHandler[];
}

/** `text` as a regular expression that matches exactly it. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The msw helper of an HTTP method (`http.post` for `POST`). */
function mswMethod(method: "GET" | "POST" | "PATCH"): "get" | "post" | "patch" {
  return method.toLowerCase() as "get" | "post" | "patch";
}

/**
 * Builds MSW handlers answering from `api`. A dropped-connection fault becomes
 * `HttpResponse.error()`, so the client's fetch rejects as on a real network error. Routes with
 * IDs are regular expressions without groups, not `:param` paths: msw 2 decodes every path
 * parameter with `decodeURIComponent` while matching and answers 500 when an ID holds a
 * malformed escape (`%E0%A4%A`); the core answers those 404 itself.
 * @param api - a mock from `createMockApi`
 * @returns the handlers, in matching order
 * @example
 * ```ts
 * const server = setupServer(...createMswHandlers(api));
 * ```
 * @throws Nothing: the handlers answer every failure as an HTTP response (or a network error for a dropped-connection fault).
 */
export function createMswHandlers(api: MockApi): HttpHandler[] {
  return mswHandlers(api, OPERATION_TABLE);
}

/** {@link createMswHandlers} for the operations a mock serves (its `operations` option). */
function mswHandlers(api: MockApi, rows: readonly OperationRow[]): HttpHandler[] {
  const resolver = async ({ request }: { request: Request }) => {
    const outcome = await api.handle(request);
    return outcome.kind === "network-error" ? HttpResponse.error() : outcome.response;
  };
  const under = (pattern: string) => new RegExp(`^${literal(api.baseUrl)}${pattern}$`);
  return [
    // One handler per operation of the table; a `{param}` matches one non-empty segment.
    ...rows.map((route) => {
      const path = route.params.length === 0 ? api.baseUrl + route.path : under(literal(route.path).replace(/\\\{\w+\\\}/g, "[^/]+"));
      return http[mswMethod(route.method)](path, resolver);
    }),
    http.all(`${api.baseUrl}${API_PREFIX}`, resolver),
    http.all(under(`${literal(API_PREFIX)}/.*`), resolver),
  ];
}

/**
 * Creates a mock of the whole API with `api.handlers` for MSW (`setupServer` in Node,
 * `setupWorker` in the browser), and `api.fetch`, `api.state`, `api.faults` and the rest of the
 * core mock (see `prospectkit/mock/core` for the same mock without msw).
 *
 * @param options - tenants and API keys, seed, clock, base URL and fixtures
 * @returns the mock, with `handlers`
 * @throws {TypeError} for a malformed option
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * import { createMockApi, unhandledRequests } from "prospectkit/mock";
 *
 * const api = createMockApi({ apiKeys: ["test_key"] });
 * const server = setupServer(...api.handlers);
 * server.listen(unhandledRequests("error")); // msw 3's onUnhandledFrame and msw 2's onUnhandledRequest
 * ```
 */
export function createMockApi(options: MockApiOptions = {}): MswMockApi {
  const api = createCoreMockApi(options);
  // The core's own object, handlers added: what is built on the core (persistState, the control API) accepts it.
  return Object.assign(api, { handlers: mswHandlers(api, options.operations?.map(({ row }) => row) ?? OPERATION_TABLE) });
}
