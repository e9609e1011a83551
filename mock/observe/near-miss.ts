/**
 * Near misses: the route a request most likely meant when it matched none (a 404), or matched a
 * path with another method (a 405). A route is near when the request has its shape and differs in
 * one thing only: its method, or one literal segment of its path (`/v0/prospect_log` for
 * `/v0/prospect_logs`). Path parameters accept any segment, so an unknown ID is never a near miss
 * (it is the route itself). The routing step finds them (its 404 and 405 say them in `detail`),
 * the request log keeps them, and the test matchers (mock/testing/) read them from here.
 * @module
 */

/** What a request differed in from the route it most likely meant: its method, or one path segment (1-based, below the base URL's path). */
export type NearMissDifference = { kind: "method"; sent: string; wanted: string } | { kind: "segment"; index: number; sent: string; wanted: string };

/** The route a request most likely meant (method, path template, operation), with the one thing it differed in. */
export interface NearMiss {
  /** The route's method. */
  method: string;
  /** The route's path template (`/v0/page_groups/{page_group_id}/pages/{page_id}`). */
  path: string;
  /** The operation the route serves. */
  operation?: string | undefined;
  /** What differed. */
  differs: NearMissDifference;
}

/** A route as a near miss needs it: its method, its path template and, for the API's routes, its operation. */
export interface NearRoute {
  readonly method: string;
  readonly path: string;
  readonly operation?: string | null | undefined;
}

/** The segments of a path below its first `/` (`/v0/a` → `["v0", "a"]`). */
const segmentsOf = (path: string) => path.split("/").slice(1);

/**
 * How `method path` differs from one route: `undefined` when it is not near (another shape, two
 * differences or more, or no difference at all). The path is compared by its last segments, so a
 * base URL's own path (`/api` of `https://host/api`) in front of it does not count.
 */
export function differenceFrom(route: NearRoute, method: string, path: string): NearMissDifference | undefined {
  const template = segmentsOf(route.path);
  const all = segmentsOf(path);
  if (all.length < template.length) return undefined;
  const offset = all.length - template.length;
  const sent = all.slice(offset);
  let differs: NearMissDifference | undefined;
  for (let i = 0; i < template.length; i++) {
    const literal = template[i]!;
    const segment = sent[i]!;
    if (/^\{\w+\}$/.test(literal) ? segment !== "" : literal === segment) continue;
    if (differs !== undefined) return undefined;
    differs = { kind: "segment", index: offset + i + 1, sent: segment, wanted: literal };
  }
  const methodFits = route.method === (method === "HEAD" ? "GET" : method);
  if (differs === undefined) return methodFits ? undefined : { kind: "method", sent: method, wanted: route.method };
  return methodFits ? differs : undefined;
}

/**
 * The route a request most likely meant, among `routes`: the first that differs from it in its
 * method only, else the first that differs in one path segment only; `undefined` when none is near.
 * @param routes - the routes to look at, in the order they are preferred
 * @param method - the request's method
 * @param path - the request's path (percent-encoded, as the log keeps it)
 */
export function nearestRoute(routes: readonly NearRoute[], method: string, path: string): NearMiss | undefined {
  let segment: NearMiss | undefined;
  for (const route of routes) {
    const differs = differenceFrom(route, method, path);
    if (differs === undefined) continue;
    const miss: NearMiss = { method: route.method, path: route.path, ...(route.operation && { operation: route.operation }), differs };
    if (differs.kind === "method") return miss;
    segment ??= miss;
  }
  return segment;
}

/**
 * What a request differed in, in words: `the method was GET, not POST`, `path segment 2 was
 * "prospect_log", not "prospect_logs"`. Only the segment that differs is quoted, cut at 40
 * characters (a path never carries the key, but a segment is the caller's text).
 */
export function describeDifference(differs: NearMissDifference): string {
  if (differs.kind === "method") return `the method was ${differs.sent}, not ${differs.wanted}`;
  return `path segment ${differs.index} was ${quote(differs.sent)}, not ${quote(differs.wanted)}`;
}

/** A near miss in words, for a problem's `detail` or a log line: `did you mean POST /v0/prospect_logs (createProspectLog)? …`. */
export function describeNearMiss(miss: NearMiss): string {
  const route = `${miss.method} ${miss.path}${miss.operation === undefined ? "" : ` (${miss.operation})`}`;
  const differs = describeDifference(miss.differs);
  return `Did you mean ${route}? ${differs[0]!.toUpperCase()}${differs.slice(1)}.`;
}

const quote = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
