/**
 * msw 3's "error" strategy for a request no handler takes, without the console block it prints
 * ("[MSW] Error: intercepted a request without a matching request handler"): a test that sends
 * such a request on purpose passes quietly. The request still fails the same way (msw answers it
 * with a network error, so the `fetch` rejects with a TypeError), and each one is recorded
 * so the test can say which requests it expected to be left unhandled.
 */

/** What msw 3 hands an `onUnhandledFrame` callback, as far as it is read here. */
interface UnhandledFrame {
  readonly frame: { readonly data: unknown };
}

/** An `onUnhandledFrame` callback for msw 3 and the requests it refused. */
export interface QuietUnhandledFrames {
  /** Pass as `server.listen({ onUnhandledFrame })`. */
  readonly onUnhandledFrame: (args: UnhandledFrame) => Promise<void>;
  /** Each refused request as `METHOD url`, in order. */
  readonly unhandled: string[];
}

/**
 * Creates a quiet "error" strategy.
 * @returns the callback and the list it records into
 */
export function quietUnhandledFrames(): QuietUnhandledFrames {
  const unhandled: string[] = [];
  return {
    unhandled,
    onUnhandledFrame({ frame }) {
      const { data } = frame; // an HTTP frame's is { request }
      const request = typeof data === "object" && data !== null && "request" in data && data.request instanceof Request ? data.request : undefined;
      unhandled.push(request === undefined ? "a frame that is not an HTTP request" : `${request.method} ${request.url}`);
      // msw answers the frame with what the callback rejects with: a network error fails the fetch
      // with a TypeError, as its own "error" does (any other rejection would be a 500 answer).
      return Promise.reject(Response.error());
    },
  };
}
