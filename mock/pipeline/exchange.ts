/**
 * One request on its way through the handler's steps (`handler.ts` lists them, in order), as
 * hono's middleware shares its context: each step reads what the steps before it found (the
 * route, the caller, the body), then answers (sets {@link Exchange.reply}) or calls `next`; what
 * it does after `next` sees the answer of the steps after it.
 * @module
 */
import { NO_FAULTS, type TakenFaults } from "../faults/faults.js";
import type { NearMiss } from "../observe/near-miss.js";
import type { Store } from "../state/store.js";
import type { TenantData } from "../state/tenant-data.js";
import { type AuthResult, authenticate } from "./auth.js";
import type { Reply } from "./reply.js";
import type { MockRequest } from "./request.js";
import type { Route, RouteArea } from "./route.js";
import type { RouteMatch } from "./router.js";

/** The rest of the steps, from the next one on. */
export type Next = (x: Exchange) => void | Promise<void>;

/** One step of the handler: answers, or hands the exchange to `next` (and may change the answer after). */
export type Step = (x: Exchange, next: Next) => void | Promise<void>;

/**
 * Steps run in their order, each handed the rest as its `next` (nothing is allocated per request).
 * @param steps - outermost first
 * @param last - what runs after the last step (default: nothing)
 */
export function compose(steps: readonly Step[], last: Next = () => undefined): Next {
  return steps.reduceRight<Next>((next, step) => (x) => step(x, next), last);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const NOT_ROUTED: RouteMatch<Route> = { kind: "not-found" };
const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** One request and what the steps found out about it. */
export class Exchange {
  /** When it was received, on the mock's clock (epoch ms). */
  readonly receivedAtMs: number;
  /** When it started, in real time (its duration is measured from here). */
  readonly startedAt = performance.now();
  /** Its ID (`req_…`), named in every problem body and sent as `x-request-id`. */
  requestId = "";
  /** Its path below the mock's base URL ("" for one outside it: no route). */
  readonly path: string;
  /** The route it takes, or why none (`steps/routing.ts`). */
  match = NOT_ROUTED;
  /** The part of the mock it is in (`steps/routing.ts`): its route's, or its path's when no route matched. */
  area: RouteArea | null = null;
  /** Whether the route (or, without one, the part of the mock its path is in) takes the API key first. */
  keyed = false;
  /** Whether the request log keeps it: an API request, or one the server's checks refused. */
  logged = false;
  /** Its query and its body, as its route reads them (`steps/body.ts`): validated by its route's schemas. */
  query: unknown;
  body: unknown;
  /** Its body as the client sent it (JSON parsed, not validated; or the bytes): what the request log keeps and a fault's match compares. */
  sent: unknown;
  /** The faults it took before its key was checked (`steps/faults.ts`): those matched on its body fill only what they left empty. */
  faults: TakenFaults = NO_FAULTS;
  /** How long its answer waits (the server's `--latency`, a latency fault), in milliseconds. */
  latencyMs = 0;
  /** Whether its route changed its caller's data (`steps/writes.ts`): the live feed then says so. */
  wrote = false;
  /** Its answer: `undefined` until a step gives one; `null` drops the connection. */
  reply: Reply | null | undefined = undefined;
  /** Headers every answer to it carries (its `x-request-id`, the server's CORS headers); a reply's own win. */
  readonly headers: Record<string, string> = {};
  /** For an API request that matched no route (404, 405): the route it most likely meant (`near-miss.ts`). */
  nearMiss: NearMiss | undefined;
  /** What adapters attached to its log entry, each under its own namespace (see {@link Exchange.set}). */
  extensions: Record<string, object> | undefined;
  #caller: AuthResult | undefined;
  #waited = false;

  /**
   * @param request - the request, as an adapter hands it over
   * @param store - the state it is answered from
   * @param basePath - the path of the mock's base URL ("" for a host root)
   */
  constructor(
    readonly request: MockRequest,
    readonly store: Store,
    basePath: string,
  ) {
    const { path } = request;
    this.receivedAtMs = store.nowMs();
    this.path = basePath === "" ? path : path === basePath || path.startsWith(`${basePath}/`) ? path.slice(basePath.length) || "/" : "";
  }

  /**
   * Attaches an adapter's fields to the request's log entry under the adapter's own namespace, as
   * hono's `c.set` does: the core stores them with the entry and never reads them (the proxy's
   * `violations`, `answeredBy`, ...). Fields set again under the same namespace are merged.
   */
  set(namespace: string, fields: object): void {
    this.extensions ??= {};
    this.extensions[namespace] = { ...this.extensions[namespace], ...fields };
  }

  /** What an adapter attached under its namespace, or undefined. */
  get<T extends object>(namespace: string): Partial<T> | undefined {
    return this.extensions?.[namespace] as Partial<T> | undefined;
  }

  /** The route it takes, or null. */
  get route(): Route | null {
    return this.match.kind === "route" ? this.match.route : null;
  }

  /** Its decoded path parameters. */
  get params(): Readonly<Record<string, string>> {
    return this.match.kind === "route" ? this.match.params : NO_PARAMS;
  }

  /** Who sent it: the tenant of its `x-api-key`, or why there is none (looked up once, when first asked). */
  caller(): AuthResult {
    return (this.#caller ??= authenticate(this.store, this.request.headers));
  }

  /** The caller's tenant, or null. */
  get tenant(): TenantData | null {
    const caller = this.caller();
    return caller.ok ? caller.tenant : null;
  }

  /**
   * Waits out its latency, once: `undefined` when there is none (or it was waited already), so
   * that a write without latency happens in the same step as its checks.
   */
  delay(): Promise<void> | undefined {
    if (this.#waited || this.latencyMs === 0) return undefined;
    this.#waited = true;
    return sleep(this.latencyMs);
  }

  /**
   * Its body's bytes (`null`: larger than the cap). When the client went away before the body
   * ended, the request is dropped, unanswered and unlogged, and this gives `undefined`.
   */
  async bytes(): Promise<Uint8Array | null | undefined> {
    try {
      return await this.request.body();
    } catch {
      this.reply = null;
      this.logged = false;
      return undefined;
    }
  }
}
