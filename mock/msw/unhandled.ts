/**
 * msw's option for requests no handler answered, for msw 2 (`onUnhandledRequest`) and msw 3
 * (`onUnhandledFrame`) alike, each ignoring the other's; optionally strict only under the mock's
 * base URL. msw's shapes are written out here, so the same object type-checks against either major.
 * @module
 */

import { OPERATION_TABLE } from "../../src/operation-table.js";
import { API_KEY_HEADER, REDACTED } from "../../src/redact.js";
import { describeNearMiss, nearestRoute } from "../observe/near-miss.js";

/** What msw does with a request no handler answered: let it through, warn and let it through, or fail it. */
export type UnhandledStrategy = "bypass" | "warn" | "error";

/** What msw 3 hands an `onUnhandledFrame` callback, as far as this module reads it. */
export interface UnhandledFrameArgs {
  /** The network frame: an HTTP request (`data.request`) or a WebSocket connection (`data.connection.client.url`). */
  readonly frame: { readonly protocol: string; readonly data: unknown };
  /** msw's own messages: each prints, neither fails the frame. */
  readonly defaults: UnhandledFrameDefaults;
}

/** msw 3's messages for an unhandled frame. */
export interface UnhandledFrameDefaults {
  /** Prints msw's warning for the frame. */
  warn(): unknown;
  /** Prints msw's error for the frame (without failing it). */
  error(): unknown;
}

/** What msw 2 hands an `onUnhandledRequest` callback. */
export interface UnhandledRequestPrint {
  /** Prints msw's warning for the request. */
  warning(): void;
  /** Prints msw's error for the request (older msw 2 releases also throw). */
  error(): void;
}

/** Options for `server.listen()` and `worker.start()`, understood by msw 2 and msw 3. */
export interface UnhandledRequestOptions {
  /** msw 3's option. */
  readonly onUnhandledFrame: UnhandledStrategy | ((args: UnhandledFrameArgs) => Promise<void>);
  /** msw 2's option. */
  readonly onUnhandledRequest: UnhandledStrategy | ((request: Request, print: UnhandledRequestPrint) => void);
}

/** Where {@link unhandledRequests} applies its strategy. */
export interface UnhandledScope {
  /**
   * Only requests under this URL (its origin, and its path as a prefix: pass the mock's
   * `api.baseUrl`); every other one passes through silently. Without it: every request, with
   * msw's own exceptions (common static assets).
   */
  readonly within?: string;
}

const STRATEGIES: readonly string[] = ["bypass", "warn", "error"];

/** The API's routes, for the hint beside msw's message. */
const ROUTES = /* @__PURE__ */ OPERATION_TABLE.map((row) => ({ method: row.method, path: row.path, operation: row.name }));

/** The URL a frame of msw 3 is for: an HTTP request's, or a WebSocket connection's. */
function frameUrl(data: unknown): string | undefined {
  const frame = data as { request?: { url?: unknown }; connection?: { client?: { url?: unknown } } } | null;
  const url = frame?.request?.url ?? frame?.connection?.client?.url;
  return url === undefined ? undefined : String(url);
}

/**
 * msw's unhandled-request option in both spellings, so one line works with msw 2 and msw 3:
 * spread it into `server.listen()` or `worker.start()`. A wrong option name is ignored at run time,
 * so a strict suite would silently warn instead (strict TypeScript reports TS2353).
 *
 * With `within`, the strategy applies only under that URL and everything else passes through,
 * and a request there that is one method or one path segment away from an operation's route gets
 * a line beside msw's message naming that route (`[prospectkit] POST /v0/prospect_log matched no
 * operation of the mock. Did you mean POST /v0/prospect_logs (createProspectLog)? …`):
 * what a browser app needs, since msw 3's service worker also sees the page's own navigation,
 * its assets and the dev server's HMR socket, which `"error"` would fail (a reload then shows
 * msw's error as the page).
 *
 * @param strategy - `"bypass"`, `"warn"` or `"error"` (the request fails, and msw prints why)
 * @param scope - `within`: the URL the strategy is limited to, usually `api.baseUrl`
 * @returns `{ onUnhandledFrame, onUnhandledRequest }`
 * @throws {TypeError} for an unknown strategy or a `within` that is not an absolute URL
 * @example
 * ```ts
 * server.listen(unhandledRequests("error")); // Node: every unhandled request fails
 * await worker.start({ ...unhandledRequests("error", { within: api.baseUrl }), quiet: true }); // browser
 * ```
 */
export function unhandledRequests(strategy: UnhandledStrategy, scope: UnhandledScope = {}): UnhandledRequestOptions {
  if (!STRATEGIES.includes(strategy))
    throw new TypeError(`unhandledRequests: strategy must be "bypass", "warn" or "error", not ${JSON.stringify(strategy)}`);
  if (scope.within === undefined) return { onUnhandledFrame: strategy, onUnhandledRequest: strategy };
  if (!URL.canParse(scope.within)) throw new TypeError("unhandledRequests: within must be an absolute URL (the mock's api.baseUrl)");
  const base = new URL(scope.within);
  const basePath = base.pathname.replace(/\/+$/, "");
  /** Whether the strategy applies to `url`: not bypass, the base's origin, and the base's path as a whole-segment prefix. */
  const applies = (url: string | undefined): boolean => {
    if (strategy === "bypass" || url === undefined || !URL.canParse(url)) return false;
    const target = new URL(url);
    return target.origin === base.origin && (target.pathname === basePath || target.pathname.startsWith(`${basePath}/`));
  };
  /** Beside msw's message: the operation route the request most likely meant, when one is a method or a path segment away. */
  const hint = (request: Request | undefined) => {
    if (request === undefined) return;
    const path = new URL(request.url).pathname.slice(basePath.length) || "/";
    const miss = nearestRoute(ROUTES, request.method, path);
    if (miss === undefined) return;
    const key = request.headers.get(API_KEY_HEADER);
    const shown = key ? path.replaceAll(key, REDACTED) : path;
    const said = describeNearMiss(miss);
    (strategy === "warn" ? console.warn : console.error)(
      `[prospectkit] ${request.method} ${shown} matched no operation of the mock. ${key ? said.replaceAll(key, REDACTED) : said}`,
    );
  };
  // msw answers with a thrown Response (msw 2 and 3, Node and browser): `Response.error()` fails the request as a network error does.
  return {
    async onUnhandledFrame({ frame, defaults }) {
      if (!applies(frameUrl(frame.data))) return;
      const request = (frame.data as { request?: Request }).request;
      if (strategy === "warn") {
        await defaults.warn();
        return hint(request);
      }
      await defaults.error();
      hint(request);
      throw Response.error();
    },
    onUnhandledRequest(request, print) {
      if (!applies(request.url)) return;
      if (strategy === "warn") {
        print.warning();
        return hint(request);
      }
      print.error();
      hint(request);
      throw Response.error();
    },
  };
}
