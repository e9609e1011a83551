/**
 * The run step, last: the route answers, with what the steps before it found (its parameters,
 * the caller's tenant, the body and the query, the latency to wait).
 * @module
 */
import type { Step } from "../exchange.js";
import type { Route } from "../route.js";

/**
 * @param routes - the route table the request was routed in (the index, `GET /__mock`, lists it)
 */
export const run =
  (routes: readonly Route[]): Step =>
  async (x) => {
    const { request, requestId, params, tenant, body, query } = x;
    x.reply = await x.route!.run({ request, requestId, params, tenant, body, query, routes, delay: () => x.delay() });
  };
