/**
 * Who may reach the standalone server (docs/server.md, "Security"): the `Host` names it answers
 * (against DNS rebinding) and the origins whose pages may call the mock's controls cross-origin.
 * The server runs on developers' machines with a published development key, so any page the
 * developer opens must be unable to drive it. Vite (`server.allowedHosts`, CORS limited to local
 * origins, CVE-2025-24010) and webpack-dev-server (CVE-2025-30359) are the precedent.
 *
 * - `Host`: loopback names and addresses, IP literals, the bound host and the names given
 *   (`--allowed-host`) are answered; anything else is refused with 403 `host_not_allowed`, on
 *   every path. A request without `Host` (HTTP/1.0; browsers always send one) is answered.
 * - `Origin`: the API (`/v0`) and its document answer every origin (`*`), as a public API does.
 *   Everything else (the control API, its document, the console, its feed, the inbox) answers a
 *   cross-origin request only from a loopback origin, the server's own origin, or an origin given
 *   (`--cors-origin`); any other origin gets 403 `origin_not_allowed`, and its preflight gets no
 *   `access-control-allow-*` header.
 * @module
 */
import { API_KEY_HEADER, REPLAYED_HEADER, REQUEST_ID_HEADER } from "../../src/headers.js";
import { API_PREFIX } from "../../src/operations.js";

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

/** What refuses a request, when something does. */
export type Refusal = { readonly code: "host_not_allowed" | "origin_not_allowed"; readonly detail: string } | null;

/** The server's checks of where a request comes from, and the CORS headers of its answer. */
export interface Exposure {
  /** Whether every `Host` is answered (`--allowed-host '*'`). */
  readonly anyHost: boolean;
  /** Whether every origin may call the controls cross-origin (`--cors-origin '*'`). */
  readonly anyOrigin: boolean;
  /**
   * The refusal of a request from a place the server does not serve: a foreign `Host`, or a
   * foreign `Origin` on a path outside the API. `null`: serve it.
   * @param path - the request's path
   * @param host - its `Host` header
   * @param origin - its `Origin` header
   */
  refusal(path: string, host: string | undefined, origin: string | undefined): Refusal;
  /**
   * The CORS headers of an answer to a request that was not refused: `*` for the API's paths,
   * the caller's origin (with `vary: origin`) elsewhere.
   */
  corsHeaders(path: string, origin: string | undefined): Readonly<Record<string, string>>;
  /** The headers of a preflight's answer (204), for a request that was not refused. */
  preflightHeaders(path: string, origin: string | undefined): Readonly<Record<string, string>>;
}

/** Headers a browser may read from a response besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = [REQUEST_ID_HEADER, REPLAYED_HEADER, "retry-after", "allow"] as const;

/** Request headers a browser may send. */
export const ALLOWED_HEADERS = [API_KEY_HEADER, "content-type"] as const;

/** Methods a browser may use (the API's and the control API's). */
export const ALLOWED_METHODS = ["GET", "POST", "PATCH", "DELETE", "OPTIONS"] as const;

/** How long a browser may cache a preflight answer, in seconds. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The CORS headers of every answer on a public path: any origin may read it. */
export const PUBLIC_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
});

const PREFLIGHT_EXTRA = {
  "access-control-allow-methods": ALLOWED_METHODS.join(", "),
  "access-control-allow-headers": ALLOWED_HEADERS.join(", "),
  "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
};

const PUBLIC_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({ ...PUBLIC_CORS_HEADERS, ...PREFLIGHT_EXTRA });
const NONE: Readonly<Record<string, string>> = Object.freeze({});

/** How many distinct `Host` values the server remembers its verdict on (a hostile client sending new ones only empties the memory). */
const MAX_REMEMBERED_HOSTS = 64;

/** The paths any origin may call: the API and its OpenAPI document. */
function isPublicPath(path: string): boolean {
  return path === "/openapi.json" || path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]+\]$/;
/** A host name as a `Host` header may carry one: letters, digits, hyphens, underscores and dots. */
const HOST_NAME = /^[a-z0-9_-]+(?:\.[a-z0-9_-]+)*$/;

/** Whether a (lower-case) host is a loopback name or address: `localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`. */
export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || (IPV4.test(host) && host.startsWith("127.")) || host === "[::1]";
}

/** The host of a `Host` header or an origin's authority, lower-case, without port and trailing dot; null when malformed. */
function hostOf(authority: string): string | null {
  const lower = authority.toLowerCase();
  const end = lower.startsWith("[") ? lower.indexOf("]") + 1 : lower.includes(":") ? lower.lastIndexOf(":") : lower.length;
  if (end <= 0) return null;
  const port = lower.slice(end);
  if (port !== "" && !/^:\d{0,5}$/.test(port)) return null;
  const host = lower.slice(0, end).replace(/\.$/, "");
  return IPV6_LITERAL.test(host) || HOST_NAME.test(host) ? host : null;
}

/** An allowed-host entry as compared: lower-case, without a trailing dot, brackets kept. */
function normaliseHostEntry(entry: string): string {
  return entry.toLowerCase().replace(/\.$/, "");
}

/**
 * The origin an entry of `corsOrigins` names (`https://app.example.com`), as browsers send it.
 * @throws {TypeError} for an entry that is not an http(s) origin
 */
function normaliseOrigin(entry: string): string {
  let url: URL | undefined;
  try {
    url = new URL(entry);
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    !/^https?:$/.test(url.protocol) ||
    url.username !== "" ||
    url.password !== "" ||
    url.pathname !== "/" ||
    url.search !== "" ||
    url.hash !== "" ||
    /[?#]/.test(entry)
  ) {
    throw new TypeError(`corsOrigins: ${JSON.stringify(entry)} is not an origin such as https://app.example.com (scheme, host and port only)`);
  }
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
  const anyHost = hosts.includes("*");
  const anyOrigin = origins.includes("*");
  const exact = new Set([normaliseHostEntry(boundHost), ...hosts.filter((h) => !h.startsWith(".")).map(normaliseHostEntry)]);
  const suffixes = hosts.filter((h) => h.startsWith(".")).map(normaliseHostEntry);
  const allowedOrigins = new Set(origins.filter((o) => o !== "*").map(normaliseOrigin));

  /** The verdicts on the `Host` values seen (a server is reached by a handful of names): one lookup per request. */
  const verdicts = new Map<string, boolean>();
  const hostAllowed = (header: string | undefined): boolean => {
    if (anyHost || header === undefined) return true;
    let verdict = verdicts.get(header);
    if (verdict === undefined) {
      verdict = judgeHost(header);
      if (verdicts.size >= MAX_REMEMBERED_HOSTS) verdicts.clear();
      verdicts.set(header, verdict);
    }
    return verdict;
  };
  const judgeHost = (header: string): boolean => {
    const host = hostOf(header);
    if (host === null) return false;
    if (isLoopbackHost(host) || IPV4.test(host) || IPV6_LITERAL.test(host) || exact.has(host)) return true;
    return suffixes.some((suffix) => host === suffix.slice(1) || host.endsWith(suffix));
  };

  /** An origin that may call the controls: loopback, the server's own (the `Host` it was reached by), or one given. */
  const originAllowed = (origin: string, host: string | undefined): boolean => {
    if (anyOrigin || allowedOrigins.has(origin)) return true;
    const match = /^https?:\/\/(.+)$/.exec(origin);
    if (match === null) return false;
    const originHost = hostOf(match[1]!);
    if (originHost === null) return false;
    return isLoopbackHost(originHost) || (host !== undefined && match[1] === host.toLowerCase());
  };

  const corsHeaders = (path: string, origin: string | undefined): Readonly<Record<string, string>> => {
    if (isPublicPath(path)) return PUBLIC_CORS_HEADERS;
    if (origin === undefined) return NONE;
    return { "access-control-allow-origin": origin, "access-control-expose-headers": EXPOSED_HEADERS.join(", "), vary: "origin" };
  };

  return {
    anyHost,
    anyOrigin,
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
    preflightHeaders(path, origin) {
      return isPublicPath(path) ? PUBLIC_PREFLIGHT_HEADERS : { ...corsHeaders(path, origin), ...PREFLIGHT_EXTRA };
    },
  };
}
