/**
 * What the rules share about requests: `verify`'s tags on what it writes, IDs no deployment has,
 * a path filled in, and the shape of an operation's sample request (each operation's own file,
 * `mock/verify/operations/<name>.ts`, exports its sample; `mock/verify/operations/index.ts`
 * gathers them in the table's order).
 * @module
 */
import { fillPath, type OperationRow } from "../../../src/operation-row.js";
import { type NamedRow, OPERATION_TABLE, type PerOperation } from "../../../src/operation-table.js";
import { MAX_BODY_BYTES } from "../../../src/schemas/json-limits.js";
import type { RuleInput, VerifyContext } from "../rule.js";

/** The `source` of every prospect log entry `verify` writes, so a team can find (and remove) them. */
export const VERIFY_SOURCE = "prospectkit-verify";

/** The payload of every prospect log entry `verify` writes. */
export const VERIFY_PAYLOAD = { check: "prospectkit-verify" } as const;

/** IDs no deployment holds, for the paths of a missing page group, page or subscription. */
export const MISSING = {
  pageGroupId: "pagegroup_prospectkit_verify_missing",
  pageId: "page_prospectkit_verify_missing",
  subscriptionId: "webhooksubscription_prospectkit_verify_missing",
} as const;

/** Each row of the table, by name: for the code of one operation's own contract rules. */
export const ROW: PerOperation<NamedRow> = /* @__PURE__ */ Object.fromEntries(
  /* @__PURE__ */ OPERATION_TABLE.map((row) => [row.name, row]),
) as PerOperation<NamedRow>;

/** A path of `route` with each parameter taken from `value` and URL-encoded. */
export const pathOf = (route: Pick<OperationRow, "path" | "params">, value: (key: string) => string): string =>
  fillPath(route, (param) => encodeURIComponent(value(param.key)));

/** One operation's sample request. */
export interface Sample {
  readonly route: NamedRow;
  /** A path of the operation: the given input's, or IDs that no deployment holds. */
  path(context: VerifyContext): string;
  /** A path of the operation that names nothing the deployment holds (what a missing resource answers is then 404). */
  missingPath(context: VerifyContext): string;
  /** A valid body, when the operation takes one. */
  readonly body?: Readonly<Record<string, unknown>>;
  /** The inputs without which `path` names nothing that exists (the page, the subscription). */
  readonly needs?: readonly RuleInput[];
  /**
   * The path of a resource that exists, made through the API's own operations first (a prospect
   * a create made, say), for an operation whose path names what no input gives: `path` otherwise.
   */
  existing?(context: VerifyContext): Promise<string>;
  /** The pointer of a body field that takes any JSON object (`/payload`): the rules of the JSON limits nest their values there. */
  readonly openField?: string;
}

/** What an operation's own rules file (`mock/verify/operations/<name>.ts`) exports as its sample: the sample without the row. */
export type SampleInput = Omit<Sample, "route">;

/** The methods a path of an operation serves, as the `Allow` of its 405 lists them (HEAD wherever GET is). */
export const allowOf = (route: OperationRow): string[] => (route.method === "GET" ? ["GET", "HEAD"] : [route.method]);

/**
 * A body of exactly 1 MiB plus `extra` bytes that no deployment stores: `base` (a valid body) with
 * an unknown field that pads it (`prospectkit_verify_padding`), so a deployment without the size
 * limit refuses it with a 400 rather than storing a megabyte.
 */
export function oversizedBody(extra: number, base: object = { source: VERIFY_SOURCE, payload: VERIFY_PAYLOAD }): string {
  const empty = JSON.stringify({ ...base, prospectkit_verify_padding: "" });
  return JSON.stringify({ ...base, prospectkit_verify_padding: "x".repeat(MAX_BODY_BYTES + extra - empty.length) });
}
