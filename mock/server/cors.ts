/**
 * CORS for browser prototyping: any origin may call the server with `x-api-key` and
 * `content-type`, and may read `x-request-id` (plus the headers that explain an answer).
 * The API key is a header, not a cookie, so no credentials mode is needed.
 * @module
 */
import { API_KEY_HEADER, REPLAYED_HEADER, REQUEST_ID_HEADER } from "../../src/headers.js";

/** Headers a browser may read from a response besides the CORS-safelisted ones. */
export const EXPOSED_HEADERS = [REQUEST_ID_HEADER, REPLAYED_HEADER, "retry-after", "allow"] as const;

/** Request headers a browser may send. */
export const ALLOWED_HEADERS = [API_KEY_HEADER, "content-type"] as const;

/** Methods a browser may use (the API's and the control API's). */
export const ALLOWED_METHODS = ["GET", "POST", "PATCH", "DELETE", "OPTIONS"] as const;

/** How long a browser may cache a preflight answer, in seconds. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/** The headers added to every response. */
export const CORS_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "access-control-allow-origin": "*",
  "access-control-expose-headers": EXPOSED_HEADERS.join(", "),
});

/** The headers of a preflight answer (204). */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...CORS_RESPONSE_HEADERS,
  "access-control-allow-methods": ALLOWED_METHODS.join(", "),
  "access-control-allow-headers": ALLOWED_HEADERS.join(", "),
  "access-control-max-age": String(PREFLIGHT_MAX_AGE_SECONDS),
  "content-length": "0",
});

/**
 * Whether a request is a CORS preflight: `OPTIONS` with `Access-Control-Request-Method`.
 * Preflights carry no API key (browsers never send one), so they are answered before authentication.
 * @param method - the request method
 * @param requestMethodHeader - the `Access-Control-Request-Method` header, if any
 */
export function isPreflight(method: string | undefined, requestMethodHeader: string | string[] | undefined): boolean {
  return method === "OPTIONS" && requestMethodHeader !== undefined;
}
