/**
 * The request ID step: every request gets an ID from the mock's seeded source, named in each
 * problem body and sent as `x-request-id` (a proxied answer keeps its target's own).
 * @module
 */
import { REQUEST_ID_HEADER } from "../../../src/headers.js";
import type { Step } from "../exchange.js";

/**
 * @param newRequestId - a new `req_` ID for the time `atMs`
 */
export const requestId =
  (newRequestId: (atMs: number) => string): Step =>
  (x, next) => {
    x.requestId = newRequestId(x.receivedAtMs);
    x.headers[REQUEST_ID_HEADER] = x.requestId;
    return next(x);
  };
