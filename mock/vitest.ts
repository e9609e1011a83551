/**
 * `prospectkit/mock/vitest`: request matchers for Vitest and Jest alike (one module: it imports
 * neither runner). Register them once, in a setup file or at the top of a test file:
 *
 * ```ts
 * import { expect } from "vitest"; // or Jest's global expect
 * import { matchers } from "prospectkit/mock/vitest";
 * expect.extend(matchers);
 * ```
 *
 * Each works on a mock (`createMockApi()`), a tenant (`api.isolate()`, `api.tenant(id)`) and a
 * server client (`mockServer(url, apiKey)` of `prospectkit/mock/server`, awaited).
 * @module prospectkit/mock/vitest
 */
import type { OperationId } from "../src/operation-table.js";
import type { ExpectedRequest } from "./testing/expected.js";
import {
  type MatcherContext,
  type MatcherOutcome,
  type MatcherResult,
  matchers,
  type NothingElseOptions,
  type RequestMatcherFunctions,
} from "./testing/matchers.js";
import type { MatcherUtils } from "./testing/report.js";
import type { RequestSource, SourceFault } from "./testing/source.js";

export type {
  ExpectedRequest,
  MatcherContext,
  MatcherOutcome,
  MatcherResult,
  MatcherUtils,
  NothingElseOptions,
  OperationId,
  RequestMatcherFunctions,
  RequestSource,
  SourceFault,
};
export { matchers };

/** What a matcher returns for a received value: a promise for a server client (await it), nothing in process. */
// biome-ignore lint/suspicious/noConfusingVoidType: an assertion returns nothing, as the runners' own matchers are typed
export type MatcherReturn<T> = T extends RequestSource ? Promise<void> : void;

/**
 * The request matchers as methods of an assertion on `T` (declared for Vitest's `Assertion` and
 * Jest's `Matchers` below).
 */
export interface RequestMatchers<T = unknown> {
  /**
   * At least one request of `operation` matched `expected` (a partial request: `body`, `params`,
   * `query`, `headers`, `status`; asymmetric matchers allowed). On failure the message shows the
   * nearest request of the operation with a diff, then requests to routes close to it.
   * @param operation - the operation's name (`createProspectLog`)
   * @param expected - the parts to compare
   * @throws {TypeError} for an unknown operation, or an `expected` that is no partial request (or names `x-api-key`)
   * @example
   * ```ts no-run: a fragment
   * expect(api).toHaveReceived("createProspectLog", { body: expect.objectContaining({ source: "crm" }) });
   * ```
   */
  toHaveReceived(operation: OperationId, expected?: ExpectedRequest): MatcherReturn<T>;
  /**
   * Exactly `times` requests of `operation` matched `expected`.
   * @param operation - the operation's name
   * @param times - how many (0 or more)
   * @param expected - the parts to compare
   * @throws {TypeError} for an unknown operation, a `times` that is not a whole number >= 0, or a bad `expected`
   * @example
   * ```ts no-run: a fragment
   * expect(tenant).toHaveReceivedTimes("getPage", 2, { status: 200 });
   * ```
   */
  toHaveReceivedTimes(operation: OperationId, times: number, expected?: ExpectedRequest): MatcherReturn<T>;
  /**
   * The last request of `operation` matched `expected`.
   * @param operation - the operation's name
   * @param expected - the parts to compare
   * @throws {TypeError} for an unknown operation or a bad `expected`
   * @example
   * ```ts no-run: a fragment
   * expect(api).toHaveReceivedLast("updateWebhookSubscription", { body: { active: false } });
   * ```
   */
  toHaveReceivedLast(operation: OperationId, expected?: ExpectedRequest): MatcherReturn<T>;
  /**
   * Every request was asserted in this test by one of the matchers above (or is a `GET`, with `allowGets`).
   * @param options - `allowGets: true` lets unasserted `GET` requests pass
   * @throws {TypeError} when the received value is no mock, tenant or server client
   * @example
   * ```ts no-run: a fragment
   * expect(api).toHaveReceivedNothingElse({ allowGets: true });
   * ```
   */
  toHaveReceivedNothingElse(options?: NothingElseOptions): MatcherReturn<T>;
  /**
   * No fault armed for a number of calls is still waiting (for an `afterEach`); the message lists
   * each one left with its near misses.
   * @throws {TypeError} when the received value is no mock, tenant or server client
   * @example
   * ```ts no-run: a fragment
   * afterEach(() => expect(api).toHaveFiredAllFaults());
   * ```
   */
  toHaveFiredAllFaults(): MatcherReturn<T>;
}

// Vitest's \`Assertion<R, T>\` extends its \`Matchers<R, T>\`: the place Vitest documents for custom matchers.
declare module "vitest" {
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown> extends RequestMatchers<T> {}
}

declare global {
  namespace jest {
    // biome-ignore lint/complexity/noBannedTypes: the same type parameters as @types/jest's declaration, which merging requires
    interface Matchers<R, T = {}> extends RequestMatchers<T> {}
  }
}
