/**
 * The durability step, around a route that may write (any but a read, the inbox's receiver, whose
 * messages are not kept, or a route of the session, such as arming a fault), where the server
 * keeps a state file: the route runs only while
 * the file can be written, and its answer waits until its changes are; a 503
 * `state_not_persisted` when they could not be (they are then undone). In process, with no state
 * file attached, it lets every request through.
 * @module
 */
import type { Step } from "../exchange.js";
import { problem, type Reply } from "../reply.js";
import { mayWriteState } from "../route.js";

/** Why the server cannot keep a write now: the detail of its 503 `state_not_persisted`, and when to retry. */
export interface NotPersisted {
  readonly detail: string;
  readonly retryAfterSeconds: number;
}

/**
 * How the server keeps every write it acknowledges (its state file, `--state`): each request
 * that may write runs inside `track`, so the changes of the state it makes are known to be its own.
 */
export interface Durability {
  /** Runs one request; every change of the state made while it runs (across its awaits) is its own. */
  track<T>(run: () => Promise<T>): Promise<T>;
  /** Before a route that may write runs: why no write can be kept now (the file cannot be written), or null. */
  refusal(): NotPersisted | null;
  /** After the route ran, before its answer: writes its changes; why they were not kept (they are then undone), or null. */
  settle(): NotPersisted | null;
}

const notPersisted = (requestId: string, why: NotPersisted): Reply =>
  problem(requestId, "state_not_persisted", why.detail, { headers: { "retry-after": String(why.retryAfterSeconds) } });

/**
 * @param current - the durability of the mock's state file now (null: none attached)
 */
export const durability =
  (current: () => Durability | null): Step =>
  (x, next) => {
    const kept = current();
    if (kept === null || !mayWriteState(x.route!)) return next(x);
    return kept.track(async () => {
      const refused = kept.refusal();
      if (refused !== null) return void (x.reply = notPersisted(x.requestId, refused));
      await next(x);
      const lost = kept.settle();
      if (lost !== null) x.reply = notPersisted(x.requestId, lost);
    });
  };
