import * as z from "zod/mini";
import type { Operation } from "./request.js";
import { OpaqueId, Page, ProspectLog, ProspectLogCreate, WebhookSubscription, WebhookSubscriptionUpdate } from "./schemas/index.js";
import type { ErrorStatus } from "./schemas/problem.js";
import { isWellFormed, toJsonBody } from "./serialize.js";
import { problems, rejectInvalid } from "./validate.js";

/** The prefix of every path of the API (the `baseUrl` is the host root without it). */
export const API_PREFIX = "/v0";

/**
 * How a failed attempt may be repeated without changing the outcome:
 * `safe` (a read), `idempotent` (the same absolute change twice is the change once), or
 * `idempotency-key` (made safe by a key in the body that is the same on every attempt; the server
 * replays the first answer).
 */
export type RetryClass = "safe" | "idempotent" | "idempotency-key";

/** A parameter of a path template: its name in the template, and the SDK's input field that fills it. */
export interface PathParam {
  /** As written in the template (`{page_group_id}`) and in the OpenAPI document. */
  readonly name: string;
  /** The input field of the SDK and the key of the mock's decoded params (`pageGroupId`). */
  readonly key: string;
}

/**
 * One row of the operation table: everything about an operation that is not its behaviour.
 * @internal
 */
export interface OperationRoute {
  /** The SDK's method name, the mock's operation ID and the OpenAPI `operationId`. */
  readonly name: string;
  readonly method: "GET" | "POST" | "PATCH";
  /** The path template, `{name}` for each parameter (spec 4). */
  readonly path: string;
  /** The template's parameters, in order. */
  readonly params: readonly PathParam[];
  /** The JSON body's schema, when the operation takes one. */
  readonly request?: z.ZodMiniType;
  /** The success body's schema. */
  readonly result: z.ZodMiniType;
  /** The success status. */
  readonly success: 200 | 201;
  /** Every error status the operation can answer. */
  readonly errors: readonly ErrorStatus[];
  readonly retry: RetryClass;
}

/** `POST /v0/prospect_logs` (spec 4.1). @internal */
export const createProspectLogRoute = {
  name: "createProspectLog",
  method: "POST",
  path: `${API_PREFIX}/prospect_logs`,
  params: [],
  request: ProspectLogCreate,
  result: ProspectLog,
  success: 201,
  errors: [400, 401, 409, 413, 415, 422, 429, 500],
  retry: "idempotency-key",
} as const satisfies OperationRoute;

/** `GET /v0/page_groups/{page_group_id}/pages/{page_id}` (spec 4.2). @internal */
export const getPageRoute = {
  name: "getPage",
  method: "GET",
  path: `${API_PREFIX}/page_groups/{page_group_id}/pages/{page_id}`,
  params: [
    { name: "page_group_id", key: "pageGroupId" },
    { name: "page_id", key: "pageId" },
  ],
  result: Page,
  success: 200,
  errors: [401, 404, 429, 500],
  retry: "safe",
} as const satisfies OperationRoute;

/** `PATCH /v0/webhook_subscriptions/{subscription_id}` (spec 4.3). @internal */
export const updateWebhookSubscriptionRoute = {
  name: "updateWebhookSubscription",
  method: "PATCH",
  path: `${API_PREFIX}/webhook_subscriptions/{subscription_id}`,
  params: [{ name: "subscription_id", key: "subscriptionId" }],
  request: WebhookSubscriptionUpdate,
  result: WebhookSubscription,
  success: 200,
  errors: [400, 401, 404, 413, 415, 429, 500],
  retry: "idempotent",
} as const satisfies OperationRoute;

/**
 * The operation table: every operation of the API, in the spec's order. The SDK's methods, the
 * mock's router, the MSW handlers, the OpenAPI document, the fault targets and the CLI banner are
 * all derived from it (test/architecture/operation-table.test.ts checks each).
 * @internal
 */
export const OPERATION_TABLE = [createProspectLogRoute, getPageRoute, updateWebhookSubscriptionRoute] as const;

type NamesOf<T extends readonly { name: string }[]> = { readonly [K in keyof T]: T[K]["name"] };

/** The API's operations, named as the SDK names its methods. */
export const OPERATIONS = /* @__PURE__ */ OPERATION_TABLE.map((route) => route.name) as unknown as NamesOf<typeof OPERATION_TABLE>;

/** One of the API's operations. */
export type OperationId = (typeof OPERATIONS)[number];

/**
 * A route's path with every parameter filled in.
 * @param route - the table row
 * @param value - the text for one parameter (the SDK passes it URL-encoded; the CLI banner may pass a placeholder)
 * @internal
 */
export function fillPath(route: Pick<OperationRoute, "path" | "params">, value: (param: PathParam) => string): string {
  let path = route.path;
  for (const param of route.params) path = path.replace(`{${param.name}}`, value(param));
  return path;
}

/** `fillPath` with the URL-encoded input fields named by the route's parameters. */
function encodedPath(route: Pick<OperationRoute, "path" | "params">, input: object): string {
  return fillPath(route, (param) => encodeURIComponent((input as Record<string, string>)[param.key]!));
}

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

/**
 * Input of `updateWebhookSubscription`: the subscription's ID and the changes (spec 4.3). An
 * interface, so that editors and declaration files show its name.
 */
export interface UpdateWebhookSubscriptionParams extends AcceptReadonly<WebhookSubscriptionUpdate> {
  /** The webhook subscription's ID. */
  subscriptionId: string;
}

const PageRef = /* @__PURE__ */ z.object({ pageGroupId: PathId, pageId: PathId });
const SubscriptionRef = /* @__PURE__ */ z.object({ subscriptionId: PathId });

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
 * The SDK's operation of a table row: its name, method and result schema, and how its input
 * becomes a request. A call (marked pure), not an object spread, so that a bundle drops the
 * operations (and their schemas) it does not use.
 */
function forSdk<Input>(route: OperationRoute, rest: Pick<Operation<Input>, "prepare"> & ThisType<Operation<Input>>): Operation<Input> {
  return { name: route.name, method: route.method, result: route.result, prepare: rest.prepare };
}

/**
 * {@link createProspectLogRoute} for the SDK. Always sends an `idempotencyKey` (the caller's, or a
 * generated UUID) in the body, the same on every attempt, so a retry can never create a
 * second log.
 * @internal
 */
export const createProspectLogOperation: Operation<ProspectLogCreate> = /* @__PURE__ */ forSdk<ProspectLogCreate>(createProspectLogRoute, {
  prepare(input, validate) {
    if (validate) rejectInvalid(this.name, problems(ProspectLogCreate, input));
    const body = input?.idempotencyKey ? input : { ...input, idempotencyKey: uuid() };
    return { path: encodedPath(createProspectLogRoute, body), body: toJsonBody(this.name, body) as object };
  },
});

/**
 * {@link getPageRoute} for the SDK.
 * @internal
 */
export const getPageOperation: Operation<GetPageParams> = /* @__PURE__ */ forSdk<GetPageParams>(getPageRoute, {
  prepare(input) {
    rejectInvalid(this.name, problems(PageRef, input));
    return { path: encodedPath(getPageRoute, input) };
  },
});

/**
 * {@link updateWebhookSubscriptionRoute} for the SDK.
 * @internal
 */
export const updateWebhookSubscriptionOperation: Operation<UpdateWebhookSubscriptionParams> = /* @__PURE__ */ forSdk<UpdateWebhookSubscriptionParams>(
  updateWebhookSubscriptionRoute,
  {
    prepare(input, validate) {
      const { subscriptionId, ...changes } = input ?? {};
      const errors = problems(SubscriptionRef, input);
      rejectInvalid(this.name, validate ? [...errors, ...problems(WebhookSubscriptionUpdate, changes)] : errors);
      return { path: encodedPath(updateWebhookSubscriptionRoute, input), body: toJsonBody(this.name, changes) as object };
    },
  },
);
