/**
 * The failure messages of the request matchers: what was expected, then the closest requests the
 * source received: those of the same operation first, the nearest with a field-by-field diff (the
 * runner's own `this.utils.diff`), then requests to other routes whose path or method is close.
 * @module
 */
import type { OperationId } from "../../src/operation-table.js";
import { describeDifference, differenceFrom } from "../observe/near-miss.js";
import type { LoggedRequest } from "../observe/request-log.js";
import { differences, diffPair, type Equals, type ExpectedRequest, rowOf, seen } from "./expected.js";

/** The part of the runner's matcher context the messages use (Vitest's and Jest's alike). */
export interface MatcherUtils {
  /** The runner's diff of two values (`- Expected`, `+ Received`), or null when it has none to show. */
  diff(expected: unknown, received: unknown, options?: unknown): string | null | undefined;
  /** A value as the runner prints it. */
  stringify(value: unknown): string;
  /** The runner's first line of a failure: `expect(received).matcher(expected)`. */
  matcherHint(name: string, received?: string, expected?: string, options?: object): string;
}

/** How many requests of the same operation, and of other routes, a message lists at most. */
const LISTED = 5;

/** One request in a line: `POST /v0/prospect_logs → 201`. */
export const line = (entry: LoggedRequest) => `${entry.method} ${entry.path} → ${entry.status === 0 ? "dropped" : entry.status}`;

const ordinal = (n: number) => {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
};

/** The requests of `operation` and how far each is from `expected` (its differing fields), nearest first, latest first on a tie. */
function ranked(operation: OperationId, expected: ExpectedRequest, requests: readonly LoggedRequest[], equals: Equals) {
  return requests
    .map((entry, index) => ({ entry, index, differs: differences(expected, seen(entry), equals) }))
    .filter(({ entry }) => entry.operation === operation)
    .sort((a, b) => a.differs.length - b.differs.length || b.index - a.index);
}

/**
 * The closest requests to `operation` matching `expected`, for a failure message: the nearest of
 * the operation's with the fields it differs in and the runner's diff, the others of the
 * operation in a line each, then requests to other routes that are near the operation's route.
 * @param skip - requests of the operation to leave out (those that matched, for a count that fell short)
 */
export function closest(
  operation: OperationId,
  expected: ExpectedRequest,
  requests: readonly LoggedRequest[],
  equals: Equals,
  utils: MatcherUtils,
  skip: ReadonlySet<LoggedRequest> = new Set(),
): string {
  const row = rowOf(operation);
  const sections: string[] = [];
  const same = ranked(operation, expected, requests, equals).filter(({ entry }) => !skip.has(entry));
  const total = same.length;
  if (total === 0)
    sections.push(
      `It received no ${skip.size > 0 ? "other " : ""}${operation} request (${requests.length} request${requests.length === 1 ? "" : "s"} in all).`,
    );
  const nearest = same[0];
  if (nearest !== undefined) {
    const position = `${ordinal(nearest.index + 1)} of ${requests.length}`;
    const fields = nearest.differs.length === 0 ? "" : `; differs in ${nearest.differs.join(", ")}`;
    const diff = utils.diff(...diffPair(expected, seen(nearest.entry)), { expand: false }) ?? "";
    sections.push(`The nearest ${operation} request (${position}): ${line(nearest.entry)}${fields}\n${diff}`.trimEnd());
    const others = same.slice(1, LISTED);
    if (others.length > 0) {
      const more = total - 1 - others.length;
      sections.push(
        [
          `Other ${operation} requests:`,
          ...others.map(({ entry, differs }) => `  ${line(entry)}: differs in ${differs.join(", ")}`),
          ...(more > 0 ? [`  … and ${more} more`] : []),
        ].join("\n"),
      );
    }
  }
  const near = requests
    .filter((entry) => entry.operation !== operation)
    .flatMap((entry) => {
      const differs = differenceFrom(row, entry.method, entry.path);
      return differs === undefined ? [] : [{ entry, differs }];
    });
  if (near.length > 0) {
    sections.push(
      [
        `Requests close to ${operation} (${row.method} ${row.path}):`,
        ...near.slice(-LISTED).map(({ entry, differs }) => `  ${line(entry)}: ${describeDifference(differs)}`),
      ].join("\n"),
    );
  }
  return sections.join("\n\n");
}

/** The requests that match `expected`, in a line each (for a negated matcher's message). */
export function listed(entries: readonly LoggedRequest[]): string {
  const shown = entries.slice(-LISTED).map((entry) => `  ${line(entry)}`);
  return [...(entries.length > LISTED ? [`  … ${entries.length - LISTED} earlier`] : []), ...shown].join("\n");
}
