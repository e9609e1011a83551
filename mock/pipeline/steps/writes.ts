/**
 * The writes step, around an API route: whether it changed its caller's data, told by the
 * store's writes (another request of the tenant writing meanwhile changed it all the same), so
 * that the live feed says `state` after the request's own `request`, and never for a read, a
 * refusal or a replayed idempotent request.
 * @module
 */
import type { WriteCounter } from "../../observe/changes.js";
import type { Step } from "../exchange.js";

export const writes =
  (counter: WriteCounter): Step =>
  async (x, next) => {
    const tenantId = x.tenant?.record.id;
    if (tenantId === undefined) return next(x);
    const before = counter.of(tenantId);
    await next(x);
    x.wrote = counter.of(tenantId) !== before;
  };
