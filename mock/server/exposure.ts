/**
 * Who may reach the standalone server (docs/server.md, "Security"): it runs on developers'
 * machines with a published key, so no web page they open may drive it. As Vite
 * (CVE-2025-24010) and webpack-dev-server (CVE-2025-30359) do:
 * - `Host`: loopback names and addresses, IP literals, the bound host and the names given are
 *   answered (DNS rebinding); anything else is a 403 `host_not_allowed` on every path. A request
 *   without `Host` (HTTP/1.0; browsers always send one) is answered.
 * - `Origin`: the API (`/v0`) and its document answer every origin (`*`). The rest (the control
 *   API, its document, the console and its feed, the inbox) answers a cross-origin request only
 *   from a loopback origin, the server's own, or one given; any other is a 403
 *   `origin_not_allowed`, whose preflight gets no `access-control-allow-*` header.
 * @module
 */
import { API_KEY_HEADER, REPLAYED_HEADER, REQUEST_ID_HEADER } from "../../src/headers.js";
import { API_PREFIX } from "../../src/operation-row.js";
import type { Step } from "../pipeline/exchange.js";
import { problem } from "../pipeline/reply.js";

/** Who may reach the server: `startMockServer`'s `allowedHosts` and `corsOrigins`, the CLI's `--allowed-host` and `--cors-origin`. */
export interface ExposureOptions {
  /**
   * Host names answered besides loopback names, IP literals and the bound host: `mock` (a
   * Docker Compose service), `.ngrok.app` (a leading dot: the name and every subdomain), or
   * `"*"` to answer every `Host` (a deliberate shared deployment).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins whose pages may call the control API, the console and the inbox cross-origin,
   * besides loopback origins (`http://localhost:5173`): `https://app.example.com`, or `"*"` for
   * every origin.
   */
  readonly corsOrigins?: readonly string[];
}

type Headers = Readonly<Record<string, string>>;

/** The server's checks of where a request comes from, and the CORS headers of its answer. */
export interface Exposure {
  /** Why a request from a place the server does not serve is refused (a foreign `Host`, or a foreign `Origin` outside the API), or `null`. */
  refusal(
    path: string,
    host: string | undefined,
    origin: string | undefined,
  ): { code: "host_not_allowed" | "origin_not_allowed"; detail: string } | null;
  /** The CORS headers of an answer not refused: `*` on the API's paths, the caller's origin elsewhere. */
  corsHeaders(path: string, origin: string | undefined): Headers;
  /** The headers of a preflight's answer (204), for a request not refused. */
  preflightHeaders(path: string, origin: string | undefined): Headers;
}

/** Headers a browser may read besides the CORS-safelisted ones. */
const EXPOSED = [REQUEST_ID_HEADER, REPLAYED_HEADER, "retry-after", "allow"].join(", ");
const PUBLIC: Headers = { "access-control-allow-origin": "*", "access-control-expose-headers": EXPOSED };
const PREFLIGHT: Headers = {
  "access-control-allow-methods": "GET, POST, PATCH, DELETE, OPTIONS",
  "access-control-allow-headers": `${API_KEY_HEADER}, content-type`,
  "access-control-max-age": "600",
};

/** How many distinct `Host` values the server remembers its verdict on (a client sending new ones only empties the memory). */
const REMEMBERED_HOSTS = 64;

const isPublicPath = (path: string) => path === "/openapi.json" || path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** Whether a lower-case host is a loopback name or address: `localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`. */
const isLoopback = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || (IPV4.test(host) && host.startsWith("127.")) || host === "[::1]";

/** The host of a `Host` header or an origin's authority, lower-case, without its port and trailing dot; null when malformed. */
function hostOf(authority: string): string | null {
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d{0,5})?$/.exec(authority.toLowerCase());
  const host = match?.[1]?.replace(/\.$/, "") ?? "";
  return IPV6.test(host) || HOST_NAME.test(host) ? host : null;
}

/** An entry of `corsOrigins` as browsers send it; a `TypeError` for anything but an http(s) origin. */
function originOf(entry: string): string {
  const url = URL.canParse(entry) ? new URL(entry) : null;
  const bare =
    url !== null && /^https?:$/.test(url.protocol) && url.username === "" && url.password === "" && url.pathname === "/" && !/[?#]/.test(entry);
  if (!bare)
    throw new TypeError(`corsOrigins: ${JSON.stringify(entry)} is not an origin such as https://app.example.com (scheme, host and port only)`);
  return url.origin;
}

/**
 * Builds the server's checks.
 * @param options - the names and origins given
 * @param boundHost - the host the server listens on (`--host`), also answered as a name
 * @returns the checks
 * @throws {TypeError} for an allowed host that is empty or an origin that is not an http(s) origin
 */
export function createExposure(options: ExposureOptions, boundHost: string): Exposure {
  const hosts = options.allowedHosts ?? [];
  const origins = options.corsOrigins ?? [];
  for (const entry of hosts) {
    if (typeof entry !== "string" || entry.trim() === "" || /[\s/]/.test(entry)) {
      throw new TypeError(`allowedHosts: ${JSON.stringify(entry)} is not a host name such as mock or .example.com`);
    }
  }
  const lower = (entry: string) => entry.toLowerCase().replace(/\.$/, "");
  const anyHost = hosts.includes("*");
  const anyOrigin = origins.includes("*");
  const exact = new Set([lower(boundHost), ...hosts.filter((h) => !h.startsWith(".")).map(lower)]);
  const suffixes = hosts.filter((h) => h.startsWith(".")).map(lower);
  const allowedOrigins = new Set(origins.filter((o) => o !== "*").map(originOf));

  const judge = (header: string): boolean => {
    const host = hostOf(header);
    if (host === null) return false;
    return isLoopback(host) || IPV4.test(host) || IPV6.test(host) || exact.has(host) || suffixes.some((s) => host === s.slice(1) || host.endsWith(s));
  };
  const verdicts = new Map<string, boolean>();
  const hostAllowed = (header: string | undefined): boolean => {
    if (anyHost || header === undefined) return true;
    let verdict = verdicts.get(header);
    if (verdict === undefined) {
      if (verdicts.size >= REMEMBERED_HOSTS) verdicts.clear();
      verdicts.set(header, (verdict = judge(header)));
    }
    return verdict;
  };
  /** Loopback, the server's own (the `Host` it was reached by), or one given. */
  const originAllowed = (origin: string, host: string | undefined): boolean => {
    if (anyOrigin || allowedOrigins.has(origin)) return true;
    const authority = /^https?:\/\/(.+)$/.exec(origin)?.[1];
    const originHost = authority === undefined ? null : hostOf(authority);
    return originHost !== null && (isLoopback(originHost) || authority === host?.toLowerCase());
  };
  const corsHeaders = (path: string, origin: string | undefined): Headers =>
    isPublicPath(path)
      ? PUBLIC
      : origin === undefined
        ? {}
        : { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED, vary: "origin" };

  return {
    refusal(path, host, origin) {
      if (!hostAllowed(host)) {
        return {
          code: "host_not_allowed",
          detail:
            "This server answers only loopback names, IP addresses and the host names it was given. To reach it by this name, start it with --allowed-host NAME (startMockServer: allowedHosts).",
        };
      }
      if (origin === undefined || isPublicPath(path) || originAllowed(origin, host)) return null;
      return {
        code: "origin_not_allowed",
        detail:
          "Pages from this origin may call /v0 only; the mock's controls, console and inbox answer loopback origins and the origins the server was given. To allow this one, start it with --cors-origin ORIGIN (startMockServer: corsOrigins).",
      };
    },
    corsHeaders,
    preflightHeaders: (path, origin) => ({ ...corsHeaders(path, origin), ...PREFLIGHT }),
  };
}

/**
 * The server's exposure step, at the edge of its handler: a request from a place the server does
 * not serve is answered 403 (and logged); a CORS preflight (`OPTIONS` with
 * `Access-Control-Request-Method`, which browsers send without a key) 204; any other gets the
 * CORS headers of its path on whatever answers it.
 * @param exposure - the server's checks
 */
export const exposureStep =
  (exposure: Exposure): Step =>
  (x, next) => {
    const { headers, method } = x.request;
    const origin = headers.get("origin") ?? undefined;
    const refusal = exposure.refusal(x.path, headers.get("host") ?? undefined, origin);
    if (refusal !== null) {
      x.logged = true;
      x.reply = problem(x.requestId, refusal.code, refusal.detail);
      return;
    }
    Object.assign(x.headers, exposure.corsHeaders(x.path, origin));
    if (method === "OPTIONS" && headers.has("access-control-request-method"))
      x.reply = { status: 204, headers: exposure.preflightHeaders(x.path, origin) };
    else return next(x);
  };
