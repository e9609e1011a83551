/**
 * The router of the mock's one route table (the API's routes from the operation table, the
 * control API's, the documents, the server's console and inbox): matched by path shape and
 * method. `HEAD` is served by the `GET` route; a known path with another method is a 405 (with
 * `Allow`), anything else a 404.
 * @module
 */
import type { PathParam } from "../../src/operation-row.js";

/** The method a route table is searched with: `HEAD` is served by the `GET` route (RFC 9110, 9.3.2). */
export function routingMethod(method: string): string {
  return method === "HEAD" ? "GET" : method;
}

/** The `Allow` list of a path whose routes serve `methods`: `HEAD` joins wherever `GET` is. */
export function allowList(methods: readonly string[]): string[] {
  return methods.flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
}

/** A route as the router needs it: a method and a path template with `{name}` parameters. */
export interface RouteShape<Q = unknown> {
  readonly method: string;
  /** Answers only the requests this accepts (the console's root redirect: browsers only); any other is as if the route were not there. */
  accepts?(request: Q): boolean;
  /** True for a route that takes no API key. */
  readonly public?: true;
  /** The path template, e.g. `/v0/webhook_subscriptions/{subscription_id}`. */
  readonly path: string;
  /** The key each template parameter is decoded under (by default its own name). */
  readonly params?: readonly PathParam[];
}

/** The outcome of matching one request against a router. */
export type RouteMatch<R> =
  | { readonly kind: "route"; readonly route: R; readonly params: Readonly<Record<string, string>> }
  /** `publicOnly`: every route at the path takes no API key (a document, the console), so the 405 comes without one. */
  | { readonly kind: "wrong-method"; readonly allow: readonly string[]; readonly publicOnly: boolean }
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
export function createRouter<Q, R extends RouteShape<Q>>(routes: readonly R[]): (method: string, path: string, request?: Q) => RouteMatch<R> {
  const compiled = routes.map((route) => ({ route, pattern: compile(route) }));
  return (method, path, request) => {
    const segments = path.split("/");
    const wanted = routingMethod(method);
    let allow: string[] | null = null;
    let publicOnly = true;
    for (const { route, pattern } of compiled) {
      const params = matchSegments(pattern, segments);
      if (params === null || (route.accepts !== undefined && (request === undefined || !route.accepts(request)))) continue;
      if (route.method === wanted) return { kind: "route", route, params };
      (allow ??= []).push(route.method);
      publicOnly &&= route.public === true;
    }
    return allow !== null ? { kind: "wrong-method", allow: allowList(allow), publicOnly } : { kind: "not-found" };
  };
}
