/**
 * The pace of a run (`--rate N`): at most N requests in any one-second window, as the deployment
 * sees them, and never a burst. Two limits hold together:
 *
 * - a request is sent at least `1000 / N` ms after the one before it was sent, measured when it is
 *   really sent (a late timer delays what follows, it never lets the next ones catch up);
 * - a request is sent at least one second after the answer of the request N before it ended. A
 *   request reaches the deployment somewhere between its sending and the end of its answer, so
 *   any N + 1 requests arrive more than a second apart, however late the network delivered one.
 *
 * A `rate` that is not whole allows its whole part per second (`2.5`: 2); below 1, one request
 * per `1 / rate` seconds (`0.5`: one every 2 s). One pace serves a whole run, the restore included.
 * @module
 */

/** Holds requests to the pace. */
export interface Pace {
  /**
   * Waits for the pace to allow a request, sends it and counts it until its answer ends.
   * @param send - sends the request (one at a time: a run never sends two at once)
   */
  run<T>(send: () => Promise<T>): Promise<T>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Creates a pace.
 * @param rate - requests per second (greater than 0)
 */
export function createPace(rate: number): Pace {
  const slots = Math.max(1, Math.floor(rate));
  const window = rate >= 1 ? 1000 : 1000 / rate;
  const spacing = 1000 / rate;
  /** When the answers of the last `slots` requests ended, oldest first. */
  const ends: number[] = [];
  let lastSent = Number.NEGATIVE_INFINITY;
  return {
    async run(send) {
      const due = () => Math.max(lastSent + spacing, ends.length === slots ? ends[0]! + window : Number.NEGATIVE_INFINITY);
      // A timer may fire a little early (its clock is the event loop's, read before this one): wait again until due.
      for (let wait = due() - performance.now(); wait > 0; wait = due() - performance.now()) await sleep(wait);
      lastSent = performance.now();
      try {
        return await send();
      } finally {
        ends.push(performance.now());
        if (ends.length > slots) ends.shift();
      }
    },
  };
}
