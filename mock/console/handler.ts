/**
 * The mock console, served by the standalone server: the page at {@link CONSOLE_PATH}, its two
 * built assets, and the live feed at {@link EVENTS_PATH}. An adapter on top of the control API:
 * the page drives the mock only through `/v0` and `/__mock` with the key the user typed, and the
 * feed authenticates with the control API's own check. A browser's `GET /` is sent here; API
 * clients never ask for HTML, so their answers do not change.
 * @module
 */

import { authenticateControl } from "../control/handler.js";
import { DEFAULT_API_KEY, type MockApi } from "../core.js";
import { coreOf } from "../create-mock-api.js";
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
  /** The mock (one made by `createMockApi`: its core authenticates and numbers requests). */
  readonly api: MockApi;
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

function answer(request: Request, reply: Reply, requestId: string): Response {
  const response = toResponse(reply, requestId);
  return request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
}

function text(request: Request, body: string, headers: Record<string, string>, requestId: string): Response {
  return new Response(request.method === "HEAD" ? null : body, { status: 200, headers: { ...headers, "x-request-id": requestId } });
}

/**
 * Creates the console's handler.
 * @param options - the mock
 * @returns a handler for the requests {@link isConsoleRequest} accepts; it never rejects
 */
export function createConsole(options: ConsoleOptions): (request: Request, path: string) => Response {
  const { api } = options;
  const core = coreOf(api);
  const assets = consoleAssets(CONSOLE_PATH);
  // The page offers the development key only while the mock accepts it (asked each time: keys can be issued and revoked).
  const developmentKey = () => core.authenticate(new Headers({ "x-api-key": DEFAULT_API_KEY })).ok;
  const page = (on: boolean) =>
    assets && consolePage({ script: assets.script.path, style: assets.style.path, icon: assets.icon.path, developmentKey: on });
  return (request, path) => {
    const requestId = core.newRequestId();
    if (path === EVENTS_PATH) {
      if (request.method !== "GET")
        return answer(
          request,
          problem(requestId, "method_not_allowed", "The event stream is read with GET.", { headers: { allow: "GET" } }),
          requestId,
        );
      const auth = authenticateControl(api, request, requestId);
      if ("status" in auth) return toResponse(auth, requestId);
      // The caller's tenant, read again after a reset (which may renew tenant IDs).
      const tenantOfCaller = () => {
        const now = core.authenticate(request.headers);
        return now.ok ? now.tenant.record.id : null;
      };
      return changeStream(api.changes, tenantOfCaller);
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return answer(
        request,
        problem(requestId, "method_not_allowed", "The console is read with GET.", { headers: { allow: "GET, HEAD" } }),
        requestId,
      );
    }
    if (path === "/")
      return new Response(null, { status: 302, headers: { location: CONSOLE_PATH, "x-request-id": requestId, "cache-control": "no-store" } });
    if (assets === null) {
      return answer(
        request,
        problem(requestId, "not_found", "This copy of prospectkit was built without the console (run npm run build)."),
        requestId,
      );
    }
    if (path === CONSOLE_PATH || path === `${CONSOLE_PATH}/`) {
      return text(
        request,
        page(developmentKey())!,
        { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...SECURITY_HEADERS },
        requestId,
      );
    }
    for (const asset of [assets.script, assets.style, assets.icon]) {
      if (path === asset.path) {
        return text(
          request,
          asset.body,
          { "content-type": asset.contentType, "cache-control": "public, max-age=31536000, immutable", ...SECURITY_HEADERS },
          requestId,
        );
      }
    }
    return answer(request, problem(requestId, "not_found", "The console has no such file."), requestId);
  };
}
