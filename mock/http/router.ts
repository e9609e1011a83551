/**
 * The route table: the three operations of the spec under `/v0`, matched by path shape and
 * method in constant time. A known path with another method is a 405 (with `Allow`), anything
 * else a 404.
 * @module
 */
import { allowList, routingMethod } from "./method.js";

/** The API's operations, named as the SDK names its methods. */
export const OPERATIONS = ["createProspectLog", "getPage", "updateWebhookSubscription"] as const;

/** One of the API's operations. */
export type OperationId = (typeof OPERATIONS)[number];

interface Route {
  readonly operation: OperationId;
  readonly method: string;
  /** Path segments after `/v0`; a `:name` segment is a parameter. */
  readonly segments: readonly string[];
}

/** Every route, as `METHOD /v0/path` (spec 4). */
export const ROUTES: readonly Route[] = [
  { operation: "createProspectLog", method: "POST", segments: ["prospect_logs"] },
  { operation: "getPage", method: "GET", segments: ["page_groups", ":pageGroupId", "pages", ":pageId"] },
  { operation: "updateWebhookSubscription", method: "PATCH", segments: ["webhook_subscriptions", ":subscriptionId"] },
];

/** The outcome of routing one request. */
export type RouteMatch =
  | { readonly kind: "operation"; readonly operation: OperationId; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "wrong-method"; readonly allow: readonly string[] }
  /** `underV0` tells whether the path is in the API at all (then authentication still comes first). */
  | { readonly kind: "not-found"; readonly underV0: boolean };

function matchSegments(route: Route, segments: readonly string[]): Record<string, string> | null {
  if (route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const expected = route.segments[i]!;
    const actual = segments[i]!;
    if (!expected.startsWith(":")) {
      if (expected !== actual) return null;
      continue;
    }
    let value: string;
    try {
      value = decodeURIComponent(actual);
    } catch {
      return null; // a malformed escape names no resource
    }
    if (value === "") return null;
    params[expected.slice(1)] = value;
  }
  return params;
}

/**
 * Routes a request (`HEAD` is served by the `GET` route; `Allow` lists `HEAD` beside `GET`).
 * @param method - the request method
 * @param path - the URL path below the mock's base URL, e.g. `/v0/prospect_logs`
 */
export function matchRoute(method: string, path: string): RouteMatch {
  if (path !== "/v0" && !path.startsWith("/v0/")) return { kind: "not-found", underV0: false };
  const segments = path.slice(4).split("/");
  const allow: string[] = [];
  for (const route of ROUTES) {
    const params = matchSegments(route, segments);
    if (params === null) continue;
    if (route.method === routingMethod(method)) return { kind: "operation", operation: route.operation, params };
    allow.push(route.method);
  }
  return allow.length > 0 ? { kind: "wrong-method", allow: allowList(allow) } : { kind: "not-found", underV0: true };
}
