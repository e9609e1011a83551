/**
 * The routing step: the route a request takes, from the one route table, and with it its part
 * of the mock (the API, the control API, the documents, the console), whose steps it then takes.
 * A path that matches no route is still in a part (its prefix says which): the key check of
 * that part comes first, then a 404, or a 405 with `Allow` for a path served by other methods.
 * @module
 */
import { API_PREFIX } from "../../../src/operation-row.js";
import { API_KEY_HEADER, REDACTED } from "../../../src/redact.js";
import { describeNearMiss, type NearMiss, nearestRoute } from "../../observe/near-miss.js";
import type { Next, Step } from "../exchange.js";
import { problem } from "../reply.js";
import type { Route, RouteArea } from "../route.js";
import { createRouter } from "../router.js";

/** A part of the mock by its path prefix: where a request that matches no route is, whether the key comes first, its 404. */
interface Part {
  readonly area: RouteArea;
  readonly keyed: boolean;
  readonly detail: string;
}

const PARTS: readonly (readonly [prefix: string, part: Part])[] = [
  [API_PREFIX, { area: "api", keyed: true, detail: "No API operation has this path." }],
  ["/__mock/console", { area: "console", keyed: false, detail: "The console has no such file." }],
  ["/__mock", { area: "control", keyed: true, detail: "No control API route has this path (see /__mock/openapi.json)." }],
];
const OUTSIDE: Part = { area: "api", keyed: false, detail: `Every API path starts with ${API_PREFIX}.` };

/** The part of the mock a path is in. */
const partOf = (path: string): Part => PARTS.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[1] ?? OUTSIDE;

/**
 * @param routes - the route table (the first route that matches answers)
 * @param parts - the steps of each part of the mock, from the key check on
 */
export function routing(routes: readonly Route[], parts: Readonly<Record<RouteArea, Next>>): Step {
  const route = createRouter(routes);
  const operations = routes.filter((entry) => entry.operation !== undefined);
  return (x) => {
    const match = route(x.request.method, x.path, x.request);
    x.match = match;
    if (match.kind === "route") {
      x.area = match.route.area;
      x.keyed = match.route.public !== true;
    } else {
      const part = partOf(x.path);
      x.area = part.area;
      x.keyed = match.kind === "wrong-method" ? !match.publicOnly : part.keyed;
      if (x.area === "api") x.nearMiss = nearMissOf(operations, x.request.method, x.path, x.request.headers.get(API_KEY_HEADER));
    }
    x.logged = x.area === "api";
    return parts[x.area](x);
  };
}

/**
 * The API route a request that matched none most likely meant; the segment it sent is shown as
 * `[redacted]` when it holds the request's own key (a key pasted into a path is never echoed).
 */
function nearMissOf(routes: readonly Route[], method: string, path: string, key: string | null): NearMiss | undefined {
  const miss = nearestRoute(routes, method, path);
  if (miss?.differs.kind !== "segment" || !key || !miss.differs.sent.includes(key)) return miss;
  return { ...miss, differs: { ...miss.differs, sent: REDACTED } };
}

/** The answer to a request that matches no route, once its key was checked: 404, or 405 with `Allow`; the route it most likely meant, in `detail`. */
export const noRoute: Step = (x, next) => {
  const { match } = x;
  if (match.kind === "route") return next(x);
  const near = x.nearMiss === undefined ? "" : ` ${describeNearMiss(x.nearMiss)}`;
  if (match.kind === "not-found") x.reply = problem(x.requestId, "not_found", `${partOf(x.path).detail}${near}`);
  else {
    const allow = match.allow.join(", ");
    x.reply = problem(x.requestId, "method_not_allowed", `This path accepts ${allow} only.${near}`, { headers: { allow } });
  }
};
