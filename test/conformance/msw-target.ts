/**
 * The MSW `setupServer` target of the conformance suite, for any msw major: the in-tree run
 * passes the repository's msw 3, the throw-away run (`msw2.test.ts`) the msw 2 its project
 * installed. One factory, so both runs differ only in the msw that intercepts.
 */
import type { MockApiOptions, MswMockApi } from "../../mock/index.js";
import { type QuietUnhandledFrames, quietUnhandledFrames } from "../support/unhandled-frames.js";
import type { MakeTarget } from "./harness.js";

/**
 * The part of `msw/node` the target uses. msw 2 names the unhandled-request option
 * `onUnhandledRequest`, msw 3 `onUnhandledFrame`; each ignores the other's. msw 3 gets the "error"
 * strategy without its console block (the rules send requests outside /v0 on purpose); msw 2,
 * run in a child process whose output is not shown, keeps its own "error".
 */
export type SetupServer = (...handlers: MswMockApi["handlers"]) => {
  listen(options: { onUnhandledRequest: "error"; onUnhandledFrame: QuietUnhandledFrames["onUnhandledFrame"] }): void;
  close(): void;
};

/**
 * A request no handler takes fails under the "error" strategy: msw 3 rejects the fetch with a
 * TypeError (as on a network error, which is what a target's `send` promises), msw 2 with its
 * own `InternalError`. This turns msw 2's form, and only it, into msw 3's.
 *
 * @param error - what the fetch rejected with
 * @throws TypeError for msw 2's unhandled-request error, else `error` itself
 */
function asNetworkError(error: unknown): never {
  if (error instanceof Error && error.name === "InternalError" && error.message.includes('the "error" strategy')) {
    throw new TypeError(`msw left the request unhandled: ${error.message}`, { cause: error });
  }
  throw error;
}

/**
 * Builds the conformance target that serves `api.handlers` through `setupServer` and sends each
 * request with the global `fetch`, which msw intercepts (unhandled requests fail, see above).
 *
 * @param setupServer - `setupServer` from the `msw/node` under test
 * @param createMockApi - `createMockApi` from the `prospectkit/mock` under test
 * @returns the target factory for `defineConformanceSuite`
 */
export function mswTarget(setupServer: SetupServer, createMockApi: (options: MockApiOptions) => MswMockApi): MakeTarget {
  return (options) => {
    const api = createMockApi(options);
    const server = setupServer(...api.handlers);
    server.listen({ onUnhandledRequest: "error", onUnhandledFrame: quietUnhandledFrames().onUnhandledFrame });
    return {
      api,
      send: (request) => fetch(request).catch(asNetworkError),
      answersOutsideV0: false,
      onlyNodeMethods: true,
      close: () => server.close(),
    };
  };
}
