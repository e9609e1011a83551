/**
 * What a contract rule is: one behaviour of the API that can be checked black box, over HTTP
 * only, against any deployment, with the class of its source (the spec, binding; or a decision of
 * the mock, docs/behaviour.md). The rules are written against {@link VerifyContext}, so the same
 * rule runs in the test suite (the mock behind providing the inputs) and in `prospectkit-mock verify`.
 * @module
 */
import type { OperationId } from "../../src/operation-table.js";

/** Where a rule comes from: the spec (a failure breaks the spec) or a decision of the mock (a failure means the mock and the deployment differ). */
export type RuleClass = "spec" | "mock decision";

/** An input the public API cannot create, and the `verify` option that gives it. */
export type RuleInput = "page" | "subscription" | "otherTenantKey";

/** The option of `prospectkit-mock verify` that gives each input. */
export const INPUT_OPTIONS: Readonly<Record<RuleInput, string>> = {
  page: "--page GROUP/PAGE",
  subscription: "--subscription ID",
  otherTenantKey: "--other-tenant-key KEY",
};

/**
 * Which key a request carries in `x-api-key`: the caller's (default), another tenant's, none, an
 * empty header, one no deployment can know, or the caller's with the case of its letters swapped.
 * Only the first two are valid keys; a request with one of them goes to one of the three
 * operations, or uses a method that is safe by definition (RFC 9110: GET, HEAD, OPTIONS).
 */
export type KeyChoice = "caller" | "other-tenant" | "none" | "empty" | "unknown" | "recased";

/** How to send one request. */
export interface SendOptions {
  /** Default `"caller"`. */
  readonly key?: KeyChoice;
  /** A JSON body (serialized; sent as `application/json` unless `contentType` says otherwise) ... */
  readonly json?: unknown;
  /** ... or a body sent as these exact bytes or this exact text. */
  readonly raw?: string | Uint8Array;
  /** The body's `Content-Type` (default `application/json` for a body); `null` sends none. */
  readonly contentType?: string | null;
  /** Other request headers (never `x-api-key`: that is `key`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One request as a report shows it: never a header, so never a key. */
export interface SentRequest {
  readonly method: string;
  /** The path below the base URL, with its query (any key in it shown as `[redacted]`). */
  readonly path: string;
  /** Which key it carried (never the key itself). */
  readonly key: KeyChoice;
  /** The JSON body sent, or a raw body's text (shortened when long). */
  readonly body?: unknown;
  /** The `Content-Type` sent, when it was not `application/json`. */
  readonly contentType?: string | null;
}

/** One answer, read once. */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The body parsed as JSON, or its text when it is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: a rule reads fields of whatever JSON a deployment answers, and checks each before it trusts it
  readonly body: any;
  readonly text: string;
}

/** A request and its answer. */
export interface Exchange {
  readonly request: SentRequest;
  readonly answer: Answer;
}

/** What a rule works with: HTTP calls through the harness, and the inputs it was given. */
export interface VerifyContext {
  /** Sends one request to a path below the base URL (`/v0/...`) and reads the answer. */
  send(method: string, path: string, options?: SendOptions): Promise<Exchange>;
  /** An existing page with a published version. */
  readonly page?: { readonly pageGroupId: string; readonly pageId: string };
  /** A subscription the rules may change (it is restored at the end). */
  readonly subscription?: string;
  /** Whether a key of another tenant is available (`key: "other-tenant"`). */
  readonly otherTenant: boolean;
  /** A key no deployment knows (made up for this run), for the rules that put one outside the header. */
  readonly unknownKey: string;
  /** Whether the caller's key has letters, so that `key: "recased"` differs from it. */
  readonly keyHasLetters: boolean;
  /** A fresh random word of lower-case hex digits, never used before. */
  fresh(): string;
  /** A fresh idempotency key, never used before. */
  idempotencyKey(): string;
  /** Runs `read` once per run for `name` and hands every later caller the same promise (the given page's and subscription's first reads). */
  once<T>(name: string, read: () => Promise<T>): Promise<T>;
  /** Every exchange so far, in order (keys shown as `[redacted]`). */
  exchanges(): readonly Exchange[];
  /** Every exchange so far whose answer carried a key that was sent (shown redacted). */
  keyEchoes(): readonly Exchange[];
}

/** One contract rule. */
export interface ContractRule {
  /** A stable ID, e.g. `create.result`. */
  readonly id: string;
  /** The operation it is about, or `null` for the API as a whole. */
  readonly operation: OperationId | null;
  readonly class: RuleClass;
  /** What it checks, as a sentence. */
  readonly title: string;
  /** Where the rule is written: `spec 4.1`, or `docs/behaviour.md` and its section. */
  readonly source: string;
  /** The inputs it cannot run without. */
  readonly needs?: readonly RuleInput[];
  /** Runs the checks; throws a {@link RuleFailure} on the first one that fails. */
  run(context: VerifyContext): Promise<void>;
}

/** A failed check of a rule: what was expected, and the exchange that showed it. */
export class RuleFailure extends Error {
  /**
   * @param message - what was expected and what came instead
   * @param exchange - the request and answer that showed it
   */
  constructor(
    message: string,
    readonly exchange: Exchange | undefined,
  ) {
    super(message);
    this.name = "RuleFailure";
  }
}

/** A rule that cannot run on this deployment's data, and why (reported as skipped, never passed). */
export class RuleSkipped extends Error {
  /**
   * @param reason - what is missing, and what would run the rule
   * @param inputProblem - set when an input given on the command line is wrong (the deployment does not know it): the run then ends with exit code 2
   */
  constructor(
    reason: string,
    readonly inputProblem = false,
  ) {
    super(reason);
    this.name = "RuleSkipped";
  }
}

/**
 * Checks one expectation of a rule.
 * @param ok - whether it holds
 * @param message - what was expected, and what came
 * @param exchange - the exchange it is about
 * @throws {RuleFailure} when `ok` is false
 */
export function expectThat(ok: boolean, message: string, exchange?: Exchange): asserts ok {
  if (!ok) throw new RuleFailure(message, exchange);
}

/** A value as a report shows it, short. */
export function shown(value: unknown): string {
  const text = value === undefined ? "nothing" : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
