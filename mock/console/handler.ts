/**
 * The mock console, served by the standalone server: the page at {@link CONSOLE_PATH}, its two
 * built assets, and the live feed at {@link EVENTS_PATH}. An adapter on top of the control API:
 * the page drives the mock only through `/v0` and `/__mock` with the key the user typed, and the
 * feed authenticates with the control API's own check. A browser's `GET /` is sent here; API
 * clients never ask for HTML, so their answers do not change.
 * @module
 */
import type { MockApi } from "../core.js";
import { authenticateControl } from "../control/handler.js";
import type { TenantOfKey } from "../control/keys.js";
import { newRequestId } from "../control/request-id.js";
import { problem, type Reply, toResponse } from "../http/reply.js";
import { consoleAssets } from "./assets.js";
import { consolePage } from "./page.js";
import { changeStream } from "./stream.js";

/** Where the console page is served. */
export const CONSOLE_PATH = "/__mock/console";

/** The console's live feed (server-sent events, with the `x-api-key` header). */
export const EVENTS_PATH = "/__mock/events";

/**
 * The Content-Security-Policy of the page: nothing but this server's own files, no inline script
 * or style, no frames, no plugins.
 */
export const CONSOLE_CSP = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";

const SECURITY_HEADERS = {
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/** What the console needs from the server. */
export interface ConsoleOptions {
  readonly api: MockApi;
  readonly tenantOf: TenantOfKey;
  /** Whether the server accepts the documented development key (then, and only then, the page offers it). */
  readonly developmentKey: boolean;
}

/** Whether a request is for the console (the page, its assets, its feed, or a browser's `GET /`). */
export function isConsoleRequest(path: string, request: Request): boolean {
  if (path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`) || path === EVENTS_PATH) return true;
  return path === "/" && (request.method === "GET" || request.method === "HEAD") && wantsHtml(request);
}

/** A browser navigating (Accept names text/html) without an API key: API clients never look like this. */
function wantsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("text/html") && !request.headers.has("x-api-key");
}

function answer(request: Request, reply: Reply): Response {
  const requestId = newRequestId();
  const response = toResponse(reply, requestId);
  return request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
}

function text(request: Request, body: string, headers: Record<string, string>): Response {
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { ...headers, "x-request-id": newRequestId() } });
}

/**
 * Creates the console's handler.
 * @param options - the mock, the key directory and whether the development key is on
 * @returns a handler for the requests {@link isConsoleRequest} accepts; it never rejects
 */
export function createConsole(options: ConsoleOptions): (request: Request, path: string) => Response {
  const { api, tenantOf, developmentKey } = options;
  const assets = consoleAssets(CONSOLE_PATH);
  const page = assets && consolePage({ script: assets.script.path, style: assets.style.path, icon: assets.icon.path, developmentKey });
  return (request, path) => {
    const requestId = newRequestId();
    if (path === EVENTS_PATH) {
      if (request.method !== "GET") return answer(request, problem(requestId, "method_not_allowed", "The event stream is read with GET.", { headers: { allow: "GET" } }));
      const auth = authenticateControl(request, tenantOf, requestId);
      if ("status" in auth) return toResponse(auth, requestId);
      const key = request.headers.get("x-api-key");
      return changeStream(api.changes, () => tenantOf(key));
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return answer(request, problem(requestId, "method_not_allowed", "The console is read with GET.", { headers: { allow: "GET, HEAD" } }));
    }
    if (path === "/") return new Response(null, { status: 302, headers: { location: CONSOLE_PATH, "x-request-id": requestId, "cache-control": "no-store" } });
    if (assets === null || page === null) {
      return answer(request, problem(requestId, "not_found", "This copy of prospectkit was built without the console (run npm run build)."));
    }
    if (path === CONSOLE_PATH || path === `${CONSOLE_PATH}/`) {
      return text(request, page, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...SECURITY_HEADERS });
    }
    for (const asset of [assets.script, assets.style, assets.icon]) {
      if (path === asset.path) {
        return text(request, asset.body, { "content-type": asset.contentType, "cache-control": "public, max-age=31536000, immutable", ...SECURITY_HEADERS });
      }
    }
    return answer(request, problem(requestId, "not_found", "The console has no such file."));
  };
}
