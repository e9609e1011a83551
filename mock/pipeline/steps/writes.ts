/**
 * The writes step, around an API route: whether it changed its caller's data, as the store says
 * (another request of the tenant writing meanwhile changed it all the same), so that the live
 * feed says `state` after the request's own `request`, and never for a read, a refusal or a
 * replayed idempotent request. A write made to a store a reset replaced meanwhile is kept
 * nowhere: it is no write.
 * @module
 */
import type { Store } from "../../state/store.js";
import type { Step } from "../exchange.js";

/**
 * @param current - the mock's store now
 */
export const writes =
  (current: () => Store): Step =>
  async (x, next) => {
    const tenantId = x.tenant?.record.id;
    if (tenantId === undefined) return next(x);
    const { store } = x;
    const mark = store.mark(tenantId);
    await next(x);
    x.wrote = store === current() && store.wroteSince(tenantId, mark);
  };
