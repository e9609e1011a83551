/**
 * The request matchers, for `expect.extend` in Vitest and Jest alike: they speak the standard
 * matcher protocol (`this.equals`, `this.isNot`, `this.utils.diff`) and import neither runner.
 * Each reads a mock, a tenant or a server client (mock/testing/source.ts); on a server client it
 * returns a promise (`await expect(server).toHaveReceived(...)`).
 * @module
 */
import type { OperationId } from "../../src/operation-table.js";
import type { LoggedRequest } from "../observe/request-log.js";
import { checkExpected, differences, diffPair, type ExpectedRequest, rowOf, seen } from "./expected.js";
import { closest, line, listed, type MatcherUtils } from "./report.js";
import { readerOf, type SourceFault, type SourceReader } from "./source.js";

/** The part of the runner's `this` the matchers use: Vitest's `MatcherState` and Jest's `MatcherContext` both have it. */
export interface MatcherContext {
  /** Deep equality with asymmetric matchers. */
  equals(a: unknown, b: unknown, ...rest: never[]): boolean;
  /** True under `.not`. */
  readonly isNot?: boolean;
  /** The runner's formatting helpers. */
  readonly utils: MatcherUtils;
  /** The running test's name (requests are counted as asserted per test). */
  readonly currentTestName?: string | undefined;
  /** The running test file's path. */
  readonly testPath?: string | undefined;
}

/** What a matcher returns to the runner. */
export interface MatcherResult {
  /** Whether the assertion held (before `.not`). */
  readonly pass: boolean;
  /** The message shown when the assertion (or its `.not`) fails. */
  readonly message: () => string;
}

/** Options of `toHaveReceivedNothingElse`. */
export interface NothingElseOptions {
  /** Also let pass every `GET` request nobody asserted (reads a page loads on its own, say). Default false. */
  readonly allowGets?: boolean;
}

/** The requests each test asserted, per source: what `toHaveReceivedNothingElse` leaves out. */
const asserted = new WeakMap<object, Map<string, WeakSet<LoggedRequest> | Set<string>>>();

/** A request's identity across reads: its object in process, its ID and time over HTTP (a fresh copy each read). */
const identity = (entry: LoggedRequest) => `${entry.tenantId}|${entry.requestId}|${entry.receivedAt}`;

function assertedOf(context: MatcherContext, received: object): Set<string> {
  const test = `${context.testPath ?? ""}\u0000${context.currentTestName ?? ""}`;
  let perTest = asserted.get(received);
  if (perTest === undefined) asserted.set(received, (perTest = new Map()));
  let ids = perTest.get(test) as Set<string> | undefined;
  if (ids === undefined) {
    perTest.clear(); // a new test: what the last one asserted no longer counts
    perTest.set(test, (ids = new Set()));
  }
  return ids;
}

/** Runs `check` on the source's requests, at once in process or once they arrive from a server. */
function withRequests(reader: SourceReader, check: (requests: readonly LoggedRequest[]) => MatcherResult): MatcherResult | Promise<MatcherResult> {
  const redacted = (result: MatcherResult): MatcherResult => ({ pass: result.pass, message: () => reader.redact(result.message()) });
  const requests = reader.requests();
  return "then" in requests ? requests.then((list) => redacted(check(list))) : redacted(check(requests));
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function hint(context: MatcherContext, matcher: string, reader: SourceReader, args: string): string {
  return context.utils.matcherHint(matcher, reader.name, args, { isNot: context.isNot });
}

function describeExpected(context: MatcherContext, operation: OperationId, expected: ExpectedRequest): string {
  return Object.keys(expected).length === 0 ? `a ${operation} request` : `a ${operation} request matching ${context.utils.stringify(expected)}`;
}

/** The matching requests of an operation, marked as asserted for `toHaveReceivedNothingElse` unless negated. */
function matching(context: MatcherContext, received: object, operation: OperationId, expected: ExpectedRequest, requests: readonly LoggedRequest[]) {
  const found = requests.filter((entry) => entry.operation === operation && differences(expected, seen(entry), context.equals).length === 0);
  if (!context.isNot) {
    const ids = assertedOf(context, received);
    for (const entry of found) ids.add(identity(entry));
  }
  return found;
}

/**
 * Passes when the source received at least one request of `operation` that matches `expected`.
 * @param operation - the operation's name (`createProspectLog`)
 * @param expected - a partial request; asymmetric matchers allowed inside
 */
function toHaveReceived(this: MatcherContext, received: unknown, operation: OperationId, expected?: ExpectedRequest) {
  const reader = readerOf(received);
  rowOf(operation);
  const wanted = checkExpected(expected);
  return withRequests(reader, (requests) => {
    const found = matching(this, received as object, operation, wanted, requests);
    const pass = found.length > 0;
    const head = hint(this, "toHaveReceived", reader, "operation, expected");
    return {
      pass,
      message: () =>
        pass
          ? `${head}\n\nExpected no ${describeExpected(this, operation, wanted).slice(2)}\nReceived ${plural(found.length, "matching request")}:\n${listed(found)}`
          : `${head}\n\nExpected ${describeExpected(this, operation, wanted)}\nReceived none matching.\n\n${closest(operation, wanted, requests, this.equals, this.utils)}`,
    };
  });
}

/**
 * Passes when the source received exactly `times` requests of `operation` that match `expected`.
 * @param operation - the operation's name
 * @param times - how many
 * @param expected - a partial request; asymmetric matchers allowed inside
 */
function toHaveReceivedTimes(this: MatcherContext, received: unknown, operation: OperationId, times: number, expected?: ExpectedRequest) {
  const reader = readerOf(received);
  rowOf(operation);
  if (!(Number.isInteger(times) && times >= 0)) throw new TypeError("toHaveReceivedTimes: times must be a whole number >= 0");
  const wanted = checkExpected(expected);
  return withRequests(reader, (requests) => {
    const found = matching(this, received as object, operation, wanted, requests);
    const pass = found.length === times;
    const head = hint(this, "toHaveReceivedTimes", reader, "operation, times, expected");
    const what = describeExpected(this, operation, wanted).replace(/^a /, "");
    return {
      pass,
      message: () => {
        if (pass) return `${head}\n\nExpected other than ${times} × ${what}\nReceived exactly ${times}.`;
        const summary = `${head}\n\nExpected ${times} × ${what}\nReceived ${found.length}.`;
        if (found.length > times) return `${summary}\n\nThe matching requests:\n${listed(found)}`;
        return `${summary}\n\n${closest(operation, wanted, requests, this.equals, this.utils, new Set(found))}`;
      },
    };
  });
}

/**
 * Passes when the last request of `operation` the source received matches `expected`.
 * @param operation - the operation's name
 * @param expected - a partial request; asymmetric matchers allowed inside
 */
function toHaveReceivedLast(this: MatcherContext, received: unknown, operation: OperationId, expected?: ExpectedRequest) {
  const reader = readerOf(received);
  rowOf(operation);
  const wanted = checkExpected(expected);
  return withRequests(reader, (requests) => {
    const last = requests.findLast((entry) => entry.operation === operation);
    const pass = last !== undefined && differences(wanted, seen(last), this.equals).length === 0;
    if (pass && !this.isNot) assertedOf(this, received as object).add(identity(last));
    const head = hint(this, "toHaveReceivedLast", reader, "operation, expected");
    return {
      pass,
      message: () => {
        if (pass) return `${head}\n\nExpected the last ${operation} request not to match\nReceived: ${line(last!)}`;
        const match = Object.keys(wanted).length === 0 ? "" : ` to match ${this.utils.stringify(wanted)}`;
        const want = `${head}\n\nExpected the last ${operation} request${match}`;
        if (last === undefined) return `${want}\n\n${closest(operation, wanted, requests, this.equals, this.utils)}`;
        const diff = this.utils.diff(...diffPair(wanted, seen(last)), { expand: false }) ?? "";
        const differs = differences(wanted, seen(last), this.equals).join(", ");
        return `${want}\nReceived: ${line(last)}; differs in ${differs}\n${diff}`.trimEnd();
      },
    };
  });
}

/**
 * Passes when every request the source received was asserted in this test by `toHaveReceived`,
 * `toHaveReceivedTimes` or `toHaveReceivedLast` (or is a `GET`, with `allowGets`).
 * @param options - `allowGets`: let unasserted `GET` requests pass
 */
function toHaveReceivedNothingElse(this: MatcherContext, received: unknown, options?: NothingElseOptions) {
  const reader = readerOf(received);
  return withRequests(reader, (requests) => {
    const ids = assertedOf(this, received as object);
    const rest = requests.filter((entry) => !ids.has(identity(entry)) && !(options?.allowGets === true && entry.method === "GET"));
    const pass = rest.length === 0;
    const head = hint(this, "toHaveReceivedNothingElse", reader, options?.allowGets ? "{ allowGets: true }" : "");
    return {
      pass,
      message: () =>
        pass
          ? `${head}\n\nExpected some request not asserted\nReceived ${plural(requests.length, "request")}, each asserted.`
          : `${head}\n\nExpected every request to be asserted\nReceived ${plural(rest.length, "request")} no assertion named:\n${listed(rest)}`,
    };
  });
}

/** A pending fault in a line: what it does, where, and what is left. */
function faultLine(fault: SourceFault): string {
  const what = fault.fault.kind === "status" ? `status ${fault.fault.status}` : fault.fault.kind;
  const match = fault.match === undefined ? "" : ` matching ${JSON.stringify(fault.match)}`;
  const left = Number.isFinite(fault.remaining) ? `${fault.remaining} call${fault.remaining === 1 ? "" : "s"} left` : "until cleared";
  const misses = (fault as { nearMisses?: readonly { field: string; seen: unknown; wanted: unknown }[] }).nearMisses ?? [];
  const near = misses.map((miss) => `\n    near miss: ${miss.field} was ${JSON.stringify(miss.seen)}, not ${JSON.stringify(miss.wanted)}`).join("");
  return `  ${what} on ${fault.operation}${match} (${left})${near}`;
}

/**
 * Passes when no fault armed with a number of calls is still waiting for one (a fault armed until
 * cleared, `times: Infinity`, never counts). For an `afterEach`.
 */
function toHaveFiredAllFaults(this: MatcherContext, received: unknown) {
  const reader = readerOf(received);
  const check = (faults: readonly SourceFault[]): MatcherResult => {
    const waiting = faults.filter((fault) => Number.isFinite(fault.remaining));
    const pass = waiting.length === 0;
    const head = hint(this, "toHaveFiredAllFaults", reader, "");
    return {
      pass,
      message: () =>
        reader.redact(
          pass
            ? `${head}\n\nExpected a fault still armed\nReceived none.`
            : `${head}\n\nExpected every armed fault to have fired\nReceived ${plural(waiting.length, "fault")} still armed:\n${waiting.map(faultLine).join("\n")}`,
        ),
    };
  };
  const faults = reader.faults();
  return "then" in faults ? faults.then(check) : check(faults);
}

/** What one matcher returns: at once in process, a promise on a server client. */
export type MatcherOutcome = MatcherResult | Promise<MatcherResult>;

/** The request matchers as functions of the matcher protocol (what `expect.extend` takes; a type, so it fits its index signature). */
export type RequestMatcherFunctions = {
  /** At least one request of `operation` matched `expected` (see `RequestMatchers.toHaveReceived`). */
  toHaveReceived(this: MatcherContext, received: unknown, operation: OperationId, expected?: ExpectedRequest): MatcherOutcome;
  /** Exactly `times` requests of `operation` matched `expected`. */
  toHaveReceivedTimes(this: MatcherContext, received: unknown, operation: OperationId, times: number, expected?: ExpectedRequest): MatcherOutcome;
  /** The last request of `operation` matched `expected`. */
  toHaveReceivedLast(this: MatcherContext, received: unknown, operation: OperationId, expected?: ExpectedRequest): MatcherOutcome;
  /** Every request was asserted in this test (or is a `GET`, with `allowGets`). */
  toHaveReceivedNothingElse(this: MatcherContext, received: unknown, options?: NothingElseOptions): MatcherOutcome;
  /** No fault armed for a number of calls is still waiting. */
  toHaveFiredAllFaults(this: MatcherContext, received: unknown): MatcherOutcome;
};

/**
 * The request matchers, for `expect.extend(matchers)` in Vitest or Jest: `toHaveReceived`,
 * `toHaveReceivedTimes`, `toHaveReceivedLast`, `toHaveReceivedNothingElse` and
 * `toHaveFiredAllFaults`.
 */
export const matchers: RequestMatcherFunctions = {
  toHaveReceived,
  toHaveReceivedTimes,
  toHaveReceivedLast,
  toHaveReceivedNothingElse,
  toHaveFiredAllFaults,
};
