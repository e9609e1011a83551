/**
 * One request per operation of the operation table, for the rules that hold for every operation
 * alike (authentication, methods, bodies): its path, filled with the inputs given (or IDs no
 * deployment has), and a valid body when it takes one. The rules iterate over these rows, so an
 * operation added to the table needs a sample here and nothing else.
 * @module
 */

import { rowOf } from "../../../src/operation.js";
import { fillPath, type OperationRow } from "../../../src/operation-row.js";
import { OPERATION_TABLE, type OperationId } from "../../../src/operation-table.js";
import { createProspectLog, getPage, updateWebhookSubscription } from "../../../src/operations.js";

const createProspectLogRoute = rowOf(createProspectLog);
const getPageRoute = rowOf(getPage);
const updateWebhookSubscriptionRoute = rowOf(updateWebhookSubscription);

import { MAX_BODY_BYTES } from "../../../src/schemas/json-limits.js";
import type { VerifyContext } from "../rule.js";

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

/** A path of `route` with each parameter taken from `value` and URL-encoded. */
export const pathOf = (route: Pick<OperationRow, "path" | "params">, value: (key: string) => string): string =>
  fillPath(route, (param) => encodeURIComponent(value(param.key)));

/** One operation's sample request. */
export interface Sample {
  readonly route: OperationRow;
  /** A path of the operation: the given input's, or IDs that no deployment holds. */
  path(context: VerifyContext): string;
  /** A path of the operation that names nothing the deployment holds (what a missing resource answers is then 404). */
  missingPath(context: VerifyContext): string;
  /** A valid body, when the operation takes one. */
  readonly body?: Readonly<Record<string, unknown>>;
}

/** The sample of each operation (a row of the table without one does not type-check). */
const SAMPLES: Readonly<Record<OperationId, Omit<Sample, "route">>> = {
  createProspectLog: {
    path: () => pathOf(createProspectLogRoute, () => ""),
    missingPath: () => pathOf(createProspectLogRoute, () => ""),
    body: { source: VERIFY_SOURCE, payload: VERIFY_PAYLOAD },
  },
  getPage: {
    path: (context) => pathOf(getPageRoute, (key) => (context.page as Record<string, string> | undefined)?.[key] ?? MISSING[key as "pageId"]),
    missingPath: (context) =>
      pathOf(getPageRoute, (key) => (key === "pageGroupId" ? (context.page?.pageGroupId ?? MISSING.pageGroupId) : MISSING.pageId)),
  },
  updateWebhookSubscription: {
    path: (context) => pathOf(updateWebhookSubscriptionRoute, () => context.subscription ?? MISSING.subscriptionId),
    missingPath: () => pathOf(updateWebhookSubscriptionRoute, () => MISSING.subscriptionId),
    body: {},
  },
};

/** Every operation with its sample request, in the table's order. */
export const OPERATION_SAMPLES: readonly Sample[] = OPERATION_TABLE.map((route) => ({ route, ...SAMPLES[route.name] }));

/** The sample of one operation. */
export const sampleOf = (operation: OperationId): Sample => OPERATION_SAMPLES.find((sample) => sample.route.name === operation)!;

/** The samples of the operations that take a JSON body. */
export const BODY_SAMPLES: readonly Sample[] = OPERATION_SAMPLES.filter((sample) => sample.route.request !== undefined);

/** The methods a path of an operation serves, as the `Allow` of its 405 lists them (HEAD wherever GET is). */
export const allowOf = (route: OperationRow): string[] => (route.method === "GET" ? ["GET", "HEAD"] : [route.method]);

/**
 * A create body of exactly 1 MiB plus `extra` bytes that no deployment stores: valid but for an
 * unknown field that pads it (`prospectkit_verify_padding`), so a deployment without the size
 * limit refuses it with a 400 rather than storing a megabyte.
 */
export function oversizedBody(extra: number): string {
  const empty = JSON.stringify({ source: VERIFY_SOURCE, payload: VERIFY_PAYLOAD, prospectkit_verify_padding: "" });
  return JSON.stringify({
    source: VERIFY_SOURCE,
    payload: VERIFY_PAYLOAD,
    prospectkit_verify_padding: "x".repeat(MAX_BODY_BYTES + extra - empty.length),
  });
}
