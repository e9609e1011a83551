/**
 * The router of every HTTP surface of the mock: the API's routes come from the operation table
 * (`src/operations.ts`), the control API's from its own route table, and both are matched here by
 * path shape and method. A known path with another method is a 405 (with `Allow`), anything else
 * a 404.
 * @module
 */
import { API_PREFIX, OPERATION_TABLE, type OperationId, type PathParam } from "../../src/operations.js";
import { allowList, routingMethod } from "./method.js";

/** A route as the router needs it: a method and a path template with `{name}` parameters. */
export interface RouteShape {
  readonly method: string;
  /** The path template, e.g. `/v0/webhook_subscriptions/{subscription_id}`. */
  readonly path: string;
  /** The key each template parameter is decoded under (by default its own name). */
  readonly params?: readonly PathParam[];
}

/** The outcome of matching one request against a router. */
export type RouteMatch<R> =
  | { readonly kind: "route"; readonly route: R; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "wrong-method"; readonly allow: readonly string[] }
  | { readonly kind: "not-found" };

/** A compiled template: per segment, the literal it must equal, or null for a parameter (decoded under `keys[i]`). */
interface Pattern {
  readonly literals: readonly (string | null)[];
  readonly keys: readonly string[];
}

function compile(shape: RouteShape): Pattern {
  const parts = shape.path.split("/");
  const names = parts.map((part) => /^\{(\w+)\}$/.exec(part)?.[1]);
  return {
    literals: parts.map((part, i) => (names[i] === undefined ? part : null)),
    keys: names.map((name) => (name === undefined ? "" : (shape.params?.find((param) => param.name === name)?.key ?? name))),
  };
}

/** The decoded parameters of a path that fits the pattern, or null. Literals are compared before anything is decoded or allocated. */
function matchSegments({ literals, keys }: Pattern, segments: readonly string[]): Record<string, string> | null {
  if (literals.length !== segments.length) return null;
  for (let i = 0; i < segments.length; i++) {
    const literal = literals[i];
    if (literal !== null && literal !== segments[i]) return null;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    if (literals[i] !== null) continue;
    const segment = segments[i]!;
    let value = segment;
    // Only an escape needs decoding (most IDs have none: no call into the URI decoder for them).
    if (segment.includes("%")) {
      try {
        value = decodeURIComponent(segment);
      } catch {
        return null; // a malformed escape names no resource
      }
    }
    if (value === "") return null;
    params[keys[i]!] = value;
  }
  return params;
}

/**
 * Creates a router over a route table (`HEAD` is served by the `GET` route; `Allow` lists `HEAD` beside `GET`).
 * @param routes - the routes, each with its method and path template
 * @returns a function routing one request by method and path (the path below the mock's base URL)
 */
export function createRouter<R extends RouteShape>(routes: readonly R[]): (method: string, path: string) => RouteMatch<R> {
  const compiled = routes.map((route) => ({ route, pattern: compile(route) }));
  return (method, path) => {
    const segments = path.split("/");
    const wanted = routingMethod(method);
    let allow: string[] | null = null;
    for (const { route, pattern } of compiled) {
      const params = matchSegments(pattern, segments);
      if (params === null) continue;
      if (route.method === wanted) return { kind: "route", route, params };
      (allow ??= []).push(route.method);
    }
    return allow !== null ? { kind: "wrong-method", allow: allowList(allow) } : { kind: "not-found" };
  };
}

/** The outcome of routing one API request. */
export type ApiRouteMatch =
  | { readonly kind: "operation"; readonly operation: OperationId; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "wrong-method"; readonly allow: readonly string[] }
  /** `underApi` tells whether the path is in the API at all (then authentication still comes first). */
  | { readonly kind: "not-found"; readonly underApi: boolean };

const routeApi = createRouter(OPERATION_TABLE);

/**
 * Routes an API request through the operation table.
 * @param method - the request method
 * @param path - the URL path below the mock's base URL, e.g. `/v0/prospect_logs`
 */
export function matchRoute(method: string, path: string): ApiRouteMatch {
  if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) return { kind: "not-found", underApi: false };
  const match = routeApi(method, path);
  if (match.kind === "route") return { kind: "operation", operation: match.route.name, params: match.params };
  return match.kind === "wrong-method" ? match : { kind: "not-found", underApi: true };
}
