import * as z from "zod/mini";
import type { Operation } from "./request.js";
import {
  OpaqueId,
  Page,
  ProspectLog,
  ProspectLogCreate,
  WebhookSubscription,
  WebhookSubscriptionUpdate,
} from "./schemas/index.js";
import { isWellFormed } from "./serialize.js";
import { problems, rejectInvalid } from "./validate.js";

/**
 * A path parameter: a non-empty string (the spec shows no format) that is not `.` or `..`,
 * which no URL encoding can keep from being read as "this" or "parent" folder.
 */
const PathId = /* @__PURE__ */ OpaqueId.check(
  z.refine((id) => id !== "." && id !== "..", { error: 'must not be "." or ".."', params: { code: "invalid_value" } }),
  z.refine(isWellFormed, { error: "must be valid Unicode (it has a lone surrogate)", params: { code: "invalid_string" } }),
);

/** An array type that also takes a read-only array (an `as const` list); any other type as it is. */
export type ReadonlyArrayOk<V> = V extends readonly (infer E)[] ? readonly E[] : V;

/** `T` with every array field also taking a read-only array, since the SDK never changes its input. */
export type AcceptReadonly<T> = { [K in keyof T]: ReadonlyArrayOk<T[K]> };

/** Input of `getPage`: the IDs of the page group and of the page in it (spec 4.2). */
export interface GetPageParams {
  /** The page group's ID. */
  pageGroupId: string;
  /** The page's ID. */
  pageId: string;
}

/** Input of `updateWebhookSubscription`: the subscription's ID and the changes (spec 4.3). */
export type UpdateWebhookSubscriptionParams = AcceptReadonly<WebhookSubscriptionUpdate> & {
  /** The webhook subscription's ID. */
  subscriptionId: string;
};

const PageRef = z.object({ pageGroupId: PathId, pageId: PathId });
const SubscriptionRef = z.object({ subscriptionId: PathId });

/** A random UUID v4 for an idempotency key: `crypto.randomUUID` where it exists (not in every browser context), else `getRandomValues`. */
function uuid(): string {
  return (
    crypto.randomUUID?.() ??
    // each 0 and 1 becomes a random hex digit; the 4 (version) stays; the 8 becomes 8 to b (variant 10xx)
    "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (digit) =>
      (Number(digit) ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (Number(digit) / 4)))).toString(16),
    )
  );
}

/**
 * `POST /v0/prospect_logs` (spec 4.1). Always sends an `idempotencyKey` (the caller's, or a
 * generated UUID) in the body, the same on every attempt, so a retry can never create a
 * second log.
 * @internal
 */
export const createProspectLogOperation: Operation<ProspectLogCreate> = {
  name: "createProspectLog",
  method: "POST",
  result: ProspectLog,
  prepare(input, validate) {
    if (validate) rejectInvalid(this.name, problems(ProspectLogCreate, input));
    const body = input?.idempotencyKey ? input : { ...input, idempotencyKey: uuid() };
    return { path: "/v0/prospect_logs", body };
  },
};

/**
 * `GET /v0/page_groups/{page_group_id}/pages/{page_id}` (spec 4.2).
 * @internal
 */
export const getPageOperation: Operation<GetPageParams> = {
  name: "getPage",
  method: "GET",
  result: Page,
  prepare(input) {
    rejectInvalid(this.name, problems(PageRef, input));
    return { path: `/v0/page_groups/${encodeURIComponent(input.pageGroupId)}/pages/${encodeURIComponent(input.pageId)}` };
  },
};

/**
 * `PATCH /v0/webhook_subscriptions/{subscription_id}` (spec 4.3).
 * @internal
 */
export const updateWebhookSubscriptionOperation: Operation<UpdateWebhookSubscriptionParams> = {
  name: "updateWebhookSubscription",
  method: "PATCH",
  result: WebhookSubscription,
  prepare(input, validate) {
    const { subscriptionId, ...changes } = input ?? {};
    const errors = problems(SubscriptionRef, input);
    rejectInvalid(this.name, validate ? [...errors, ...problems(WebhookSubscriptionUpdate, changes)] : errors);
    return { path: `/v0/webhook_subscriptions/${encodeURIComponent(subscriptionId)}`, body: changes };
  },
};
