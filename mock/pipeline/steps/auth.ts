/**
 * The key check: where the route (or, for a path no route matches, its part of the mock) takes
 * a key, a request without a known one is answered 401 before anything else of it is read
 * (401 wins over 400, 404 and 405).
 * @module
 */
import type { Step } from "../exchange.js";
import { problem } from "../reply.js";

export const auth: Step = (x, next) => {
  if (!x.keyed) return next(x);
  const caller = x.caller();
  if (caller.ok) return next(x);
  x.reply = problem(x.requestId, caller.code, caller.detail);
};
