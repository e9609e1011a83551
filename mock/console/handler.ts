/**
 * The console's routes, which the standalone server adds to its route table: the page at
 * {@link CONSOLE_PATH}, its built files, and the live feed at {@link EVENTS_PATH}. The page drives
 * the mock only through `/v0` and `/__mock` with the key the user typed; the feed takes the key like
 * every control route. A browser's `GET /` is sent to the page; API clients never ask for HTML.
 * @module
 */
import { DEFAULT_API_KEY } from "../core.js";
import type { MockHost } from "../create-mock-api.js";
import { problem, type Reply } from "../pipeline/reply.js";
import type { Route } from "../pipeline/route.js";
import { consoleAssets, consolePage } from "./page.js";
import { changeStream } from "./stream.js";

/** Where the console page is served. */
export const CONSOLE_PATH = "/__mock/console";

/** The console's live feed (server-sent events, with the `x-api-key` header). */
export const EVENTS_PATH = "/__mock/events";

/** The page's Content-Security-Policy: nothing but this server's own files, no inline script or style, no frames, no plugins. */
export const CONSOLE_CSP = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; object-src 'none'";

const SECURITY_HEADERS = {
  "content-security-policy": CONSOLE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
};

/** A public `GET` route of the console at `path` (listed by the index, `GET /__mock`, when it has a summary). */
function file(path: string, run: Route["run"], summary?: string): Route {
  return { method: "GET", path, area: "console", public: true, run, ...(summary !== undefined && { summary }) };
}

/**
 * The console's routes.
 * @param mock - the mock (the feed follows the caller's key to its tenant after a reset)
 * @returns the routes, for the server's route table
 */
export function consoleRoutes(mock: Pick<MockHost, "api" | "authenticate">): Route[] {
  const assets = consoleAssets(CONSOLE_PATH);
  const tenantOf = (headers: Headers) => {
    const caller = mock.authenticate(headers);
    return caller.ok ? caller.tenant.record.id : null;
  };
  const page: Route["run"] = ({ requestId }) =>
    assets === null
      ? problem(requestId, "not_found", "This copy of prospectkit was built without the console (run npm run build).")
      : {
          status: 200,
          // The page offers the development key only while the mock accepts it (keys can be issued and revoked).
          text: consolePage(assets, tenantOf(new Headers({ "x-api-key": DEFAULT_API_KEY })) !== null),
          headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...SECURITY_HEADERS },
        };
  const immutable = { "cache-control": "public, max-age=31536000, immutable", ...SECURITY_HEADERS };
  return [
    file(CONSOLE_PATH, page, "The console: your tenant's requests, state, webhooks and faults, live (open it in a browser)"),
    file(`${CONSOLE_PATH}/`, page),
    ...Object.values(assets ?? {}).map((asset) =>
      file(asset.path, (): Reply => ({ status: 200, text: asset.body, headers: { "content-type": asset.contentType, ...immutable } })),
    ),
    // The feed reads the caller's tenant again after a reset, which may renew tenant IDs.
    {
      method: "GET",
      path: EVENTS_PATH,
      summary: "Your tenant's changes as server-sent events: ready, then request and change events (x-api-key)",
      area: "console",
      run: ({ request }) => changeStream(mock.api.changes, () => tenantOf(request.headers)),
    },
    {
      // A browser navigating to the server's root (Accept names text/html, no API key) is sent to the console; API clients never look like this.
      ...file("/", () => ({ status: 302, headers: { location: CONSOLE_PATH, "cache-control": "no-store" } })),
      accepts: (request) => (request.headers.get("accept") ?? "").includes("text/html") && !request.headers.has("x-api-key"),
    },
  ];
}
