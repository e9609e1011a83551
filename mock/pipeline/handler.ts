/**
 * The mock's one request handler: every adapter (`api.fetch`, the MSW handlers, the Node server)
 * hands it a {@link MockRequest} and gets back a {@link MockResponse}, or `null` for a dropped
 * connection. Each rule of the edge lives here once, in this order:
 *
 * 1. who may ask (the server's `Host` and `Origin` checks) and CORS preflights;
 * 2. the route, from the one route table;
 * 3. the caller's key (before anything else of the request: 401 wins over 400, 404 and 405);
 * 4. faults (API requests; a tenant's own apply to its key's requests only): a status, a dropped
 *    connection, a latency, a malformed body;
 * 5. route errors (404, 405 with `Allow`), the body (415, 413, 400) and the query (400); then the
 *    faults matched on body fields, which only a readable body can trigger;
 * 6. the route itself, awaited (with a state file, a route that may write is refused while the
 *    file cannot be written, and its answer waits until its changes are written: a 503
 *    `state_not_persisted` when they could not be, their changes undone); then rendering (problem
 *    bodies, `x-request-id`, HEAD, CORS), the request log and the answered-request hook.
 *
 * It never throws: an unexpected exception is a 500 problem (the property tests prove none occurs).
 * @module
 */
import { API_PREFIX } from "../../src/operation-row.js";
import { formatTimestamp } from "../lib/clock.js";
import type { Store } from "../state/store.js";
import type { TenantData } from "../state/tenant-data.js";
import { authenticate } from "./auth.js";
import { NO_BODY, parseJsonBody } from "./body.js";
import type { Exposure } from "./exposure.js";
import { type FaultRegistry, type FaultRequest, faultReply, malformed } from "./faults.js";
import { fieldErrorsOf, invalidFields, problem, type Reply, render } from "./reply.js";
import type { MockRequest, MockResponse } from "./request.js";
import type { LoggedRequest } from "./request-log.js";
import type { Route, RouteArea } from "./route.js";
import { createRouter } from "./router.js";

/** One answered request, as the CLI prints it. Never carries a header (so never the API key). */
export interface AnsweredRequest {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** The status sent; 0 when the connection was dropped (a fault). */
  readonly status: number;
  /** How long the answer took, in milliseconds. */
  readonly durationMs: number;
  /**
   * True for the web console's own traffic: its page, files and event stream, and the reads it
   * makes to refresh its views (marked with the `x-prospectkit-console` header). The CLI leaves
   * these out of its request lines, which stay about the user's own calls.
   */
  readonly console?: boolean;
  /** The validating proxy only: what the exchange broke of the API's contract. */
  readonly violations?: readonly string[];
  /** The validating proxy only: who answered. */
  readonly answeredBy?: "target" | "mock";
}

/** The header the console sets on the reads that refresh its views. */
export const CONSOLE_READ_HEADER = "x-prospectkit-console";

/** What the handler needs from the mock. */
export interface HandlerCore {
  /** The current state. */
  store(): Store;
  /** The path of the mock's base URL ("" for a host root): routes are matched below it. */
  readonly basePath: string;
  /** A new `req_` ID for the time `atMs`. */
  newRequestId(atMs: number): string;
  /** The faults API requests take: first those needing no body (none armed: at once, nothing allocated), then those matched on body fields. */
  readonly faults: Pick<FaultRegistry, "take" | "takeByBody">;
  /** Logs an answered API request. */
  record(entry: LoggedRequest): void;
}

/** Why the server cannot keep a write now: the detail of its 503 `state_not_persisted`, and when to retry. */
export interface NotPersisted {
  readonly detail: string;
  readonly retryAfterSeconds: number;
}

/**
 * How the server keeps every write it acknowledges (its state file, `--state`): each request runs
 * inside `track`, so the changes of the state it makes are known to be its own.
 */
export interface Durability {
  /** Runs one request; every change of the state made while it runs (across its awaits) is its own. */
  track<T>(run: () => Promise<T>): Promise<T>;
  /** Before a route that may write runs: why no write can be kept now (the file cannot be written), or null. */
  refusal(): NotPersisted | null;
  /** After the route ran, before its answer: writes its changes; why they were not kept (they are then undone), or null. */
  settle(): NotPersisted | null;
}

/** How a handler is built: its routes and what its adapter adds. */
export interface HandlerOptions {
  /** The route table. */
  readonly routes: readonly Route[];
  /** The server's `Host` and `Origin` checks and CORS headers (in process there are none). */
  readonly exposure?: Exposure;
  /** Every API request is answered this many milliseconds late (the server's `--latency`). */
  readonly latencyMs?: number;
  /** Called once per answered request. */
  readonly onAnswered?: (request: AnsweredRequest) => void;
  /** Who answers for this handler, marked on each entry it logs (the proxy's fallback: the mock). */
  readonly answeredBy?: "mock";
  /** The server's state file: no write is acknowledged before it is kept. */
  readonly durability?: Durability;
}

/** The mock's handler: an answer, or `null` for a dropped connection. Never rejects. */
export type MockHandler = (request: MockRequest) => Promise<MockResponse | null>;

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The part of the mock a path lies in, for a request that matches no route of it. */
function areaOf(path: string): { readonly area: RouteArea; readonly keyFirst: boolean; readonly detail: string } {
  if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) return { area: "api", keyFirst: true, detail: "No API operation has this path." };
  if (path === "/__mock/console" || path.startsWith("/__mock/console/"))
    return { area: "console", keyFirst: false, detail: "The console has no such file." };
  if (path === "/__mock" || path.startsWith("/__mock/")) {
    return { area: "control", keyFirst: true, detail: "No control API route has this path (see /__mock/openapi.json)." };
  }
  return { area: "api", keyFirst: false, detail: `Every API path starts with ${API_PREFIX}.` };
}

/** The answer to a write the state file could not keep (its change undone). */
function notPersisted(requestId: string, why: NotPersisted): Reply {
  return problem(requestId, "state_not_persisted", why.detail, { headers: { "retry-after": String(why.retryAfterSeconds) } });
}

/** Whether a route may change the state: any but a read, or the inbox's receiver (its messages are not kept). */
const mayWrite = (route: Route) => route.method !== "GET" && route.public !== true;

function internalError(requestId: string): Reply {
  return problem(requestId, "internal_error", "The mock failed unexpectedly. This is a bug in prospectkit/mock; please report it.");
}

/** Whether a request is a CORS preflight: `OPTIONS` with `Access-Control-Request-Method` (browsers send no key with it). */
const isPreflight = (request: MockRequest) => request.method === "OPTIONS" && request.headers.has("access-control-request-method");

/** What came of one request: the reply (null: drop the connection) and what the log and the hook need. */
interface Decision {
  reply: Reply | null;
  /** The CORS headers of the answer (none for a refusal). */
  cors: Readonly<Record<string, string>> | undefined;
  route: Route | null;
  tenant: TenantData | null;
  body: unknown;
  /** Whether the request log keeps it: an API request, or one the server's checks refused. */
  logged: boolean;
}

/**
 * Creates the handler over a route table.
 * @param core - the mock's state, request IDs, faults and request log
 * @param options - the routes, and what the adapter adds (the server's checks, latency, hook)
 * @returns the handler
 */
export function createHandler(core: HandlerCore, options: HandlerOptions): MockHandler {
  const { exposure, latencyMs: baseLatency = 0, onAnswered, answeredBy, durability } = options;
  const route = createRouter(options.routes);
  const { basePath } = core;
  /** A path below the base URL's; "" (no route) for one outside it. */
  const below = (path: string) =>
    basePath === "" ? path : path === basePath || path.startsWith(`${basePath}/`) ? path.slice(basePath.length) || "/" : "";

  /** Steps 1 to 6 for one request (may throw: the caller answers 500). */
  async function decide(request: MockRequest, store: Store, requestId: string, decision: Decision): Promise<void> {
    const { method, headers } = request;
    const path = below(request.path);
    const origin = headers.get("origin") ?? undefined;
    const refusal = exposure?.refusal(path, headers.get("host") ?? undefined, origin) ?? null;
    if (refusal !== null) {
      decision.logged = true;
      decision.reply = problem(requestId, refusal.code, refusal.detail);
      return;
    }
    decision.cors = exposure?.corsHeaders(path, origin);
    if (exposure !== undefined && isPreflight(request)) {
      decision.reply = { status: 204, headers: exposure.preflightHeaders(path, origin) };
      return;
    }

    const match = route(method, path, request);
    const fallback = areaOf(path);
    const area = match.kind === "route" ? match.route.area : fallback.area;
    if (match.kind === "route") decision.route = match.route;
    decision.logged = area === "api";
    // Looked up first, so the log knows the caller of every request, faults and 404s included.
    const auth = authenticate(store, headers);
    if (auth.ok) decision.tenant = auth.tenant;
    const keyFirst = match.kind === "route" ? match.route.public !== true : match.kind === "wrong-method" ? !match.publicOnly : fallback.keyFirst;

    const faultRequest: FaultRequest = {
      operation: decision.route?.operation ?? null,
      tenantId: decision.tenant?.record.id ?? null,
      params: match.kind === "route" ? match.params : NO_PARAMS,
    };
    let taken = area === "api" ? core.faults.take(faultRequest) : null;
    let latency = (taken?.latencyMs ?? 0) + (area === "api" ? baseLatency : 0);
    let waited = latency === 0;
    const delay = () => {
      if (waited) return undefined;
      waited = true;
      return sleep(latency);
    };
    let fault = taken?.fault ?? null;
    if (fault?.kind === "network-error" && !fault.afterProcessing) return;

    let reply: Reply | null;
    let ran = false;
    if (fault?.kind === "status") reply = faultReply(requestId, fault.status, fault.retryAfterSeconds);
    else if (keyFirst && !auth.ok) reply = problem(requestId, auth.code, auth.detail);
    else if (match.kind === "not-found") reply = problem(requestId, "not_found", fallback.detail);
    else if (match.kind === "wrong-method") {
      const allow = match.allow.join(", ");
      reply = problem(requestId, "method_not_allowed", `This path accepts ${allow} only.`, { headers: { allow } });
    } else {
      const input = await readInput(match.route, request, requestId);
      if (input === GONE) {
        // The client went away before its body ended: nothing to answer, nothing to log.
        decision.logged = false;
        return;
      }
      if ("reply" in input) reply = input.reply;
      else {
        decision.body = input.body;
        // Faults matched on body fields: taken now that the body is known, for the slots still empty.
        const more = taken === null ? null : core.faults.takeByBody(faultRequest, input.body, taken);
        if (more !== null && more !== taken) {
          const added = more.latencyMs - taken!.latencyMs;
          latency += added;
          waited &&= added === 0;
          taken = more;
          fault = more.fault;
          if (fault?.kind === "network-error" && !fault.afterProcessing) return;
        }
        const refused = fault?.kind !== "status" && durability !== undefined && mayWrite(match.route) ? durability.refusal() : null;
        if (fault?.kind === "status") reply = faultReply(requestId, fault.status, fault.retryAfterSeconds);
        else if (refused !== null) reply = notPersisted(requestId, refused);
        else {
          const { routes } = options;
          const context = { request, requestId, params: match.params, tenant: decision.tenant, body: input.body, query: input.query, routes, delay };
          ran = true;
          reply = await match.route.run(context);
        }
      }
    }
    const waiting = delay();
    if (waiting !== undefined) await waiting;
    // Its changes are written before its answer leaves; a change that could not be written is undone and refused.
    const lost = ran ? (durability?.settle() ?? null) : null;
    if (lost !== null) {
      decision.reply = notPersisted(requestId, lost);
      return;
    }
    if (reply === null || fault?.kind === "network-error") return;
    decision.reply = fault?.kind === "malformed-body" ? malformed(reply) : reply;
  }

  return async (request) => {
    const started = performance.now();
    const store = core.store();
    const nowMs = store.nowMs();
    const requestId = core.newRequestId(nowMs);
    const decision: Decision = { reply: null, cors: undefined, route: null, tenant: null, body: undefined, logged: false };
    try {
      const run = () => decide(request, store, requestId, decision);
      await (durability === undefined ? run() : durability.track(run));
    } catch {
      decision.reply = internalError(requestId);
    }
    const { reply, route: matched, tenant } = decision;
    const response = reply === null ? null : render(reply, requestId, request.method, decision.cors);
    const status = response?.status ?? 0;
    const durationMs = performance.now() - started;
    const log = reply?.log;
    const by = log?.answeredBy ?? answeredBy;
    const marks = { ...(log?.violations !== undefined && { violations: [...log.violations] }), ...(by !== undefined && { answeredBy: by }) };
    if (decision.logged && log?.omit !== true) {
      const seen = log?.requestId;
      core.record({
        // The ID the client received: a proxied target's own, the mock's beside it.
        requestId: seen ?? requestId,
        ...(seen !== undefined && seen !== requestId && { proxyRequestId: requestId }),
        method: request.method,
        path: request.path,
        operation: matched?.operation ?? null,
        status,
        requestBody: log !== undefined && "requestBody" in log ? log.requestBody : decision.body,
        responseBody: log !== undefined && "responseBody" in log ? log.responseBody : reply === null ? undefined : (reply.text ?? reply.body),
        receivedAt: formatTimestamp(nowMs),
        durationMs: Math.round(durationMs * 100) / 100,
        tenantId: tenant?.record.id ?? null,
        ...marks,
        ...(log?.truncated !== undefined && { truncated: { ...log.truncated } }),
      });
    }
    if (onAnswered !== undefined) {
      const read = request.method === "GET" || request.method === "HEAD";
      const consoleTraffic = matched?.console === true || (read && request.headers.has(CONSOLE_READ_HEADER));
      onAnswered({ method: request.method, path: request.path, status, durationMs, ...(consoleTraffic && { console: true }), ...marks });
    }
    return response;
  };
}

/** What {@link readInput} gives when the client went away before its body ended. */
const GONE = Symbol("the client went away");

/** Reads what a route takes: its query and its body, or the problem that refuses them. */
async function readInput(
  route: Route,
  request: MockRequest,
  requestId: string,
): Promise<{ reply: Reply } | { body: unknown; query: unknown } | typeof GONE> {
  let query: unknown;
  if (route.query !== undefined) {
    const raw = Object.fromEntries(new URLSearchParams(request.query));
    const parsed = route.query.safeParse(raw);
    if (!parsed.success) return { reply: invalidFields(requestId, fieldErrorsOf(parsed.error, raw), "query") };
    query = parsed.data;
  }
  if (route.method === "GET") return { body: undefined, query };
  let bytes: Uint8Array | null;
  try {
    bytes = await request.body();
  } catch {
    return GONE;
  }
  if (route.body === "raw")
    return bytes === null ? { reply: problem(requestId, "payload_too_large", "The body is larger than 1 MiB.") } : { body: bytes, query };
  // A route without a body takes none: nothing, an empty body, or `{}`; anything else is refused like any body.
  if (route.body === undefined && bytes !== null && bytes.length === 0) return { body: undefined, query };
  const read = parseJsonBody(request.headers, bytes);
  if (!read.ok) return { reply: problem(requestId, read.code, read.detail, read.errors ? { errors: read.errors } : {}) };
  if (route.body === "json") return { body: read.value, query };
  const parsed = (route.body ?? NO_BODY).safeParse(read.value);
  if (!parsed.success) return { reply: invalidFields(requestId, fieldErrorsOf(parsed.error, read.value)) };
  return { body: parsed.data, query };
}
