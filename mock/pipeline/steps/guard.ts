/**
 * The guard step: a step that throws (a bug of the mock; the property tests prove none does) is
 * answered with a 500 problem, never with a dropped connection or an unlogged request.
 * @module
 */
import type { Step } from "../exchange.js";
import { problem } from "../reply.js";

export const guard: Step = async (x, next) => {
  try {
    await next(x);
  } catch {
    x.reply = problem(x.requestId, "internal_error", "The mock failed unexpectedly. This is a bug in prospectkit/mock; please report it.");
  }
};
