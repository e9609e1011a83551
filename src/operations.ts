/**
 * The operation table: one row per operation of the API, in the spec's order. A row is plain data:
 * everything about an operation that is not its behaviour (method, path and parameters, schemas,
 * statuses, retry class) and its prose, the same text as the documentation of the standalone
 * function made from it (test/architecture/operation-docs.test.ts holds the two together). The
 * function's documentation is also the client method's (through `ProspectKitClient`). Everything
 * else (the client's methods, the mock's routes, the MSW handlers, the OpenAPI operations, the
 * fault targets, the CLI banner's examples, the contract check's generic rules) derives from the
 * rows, the default export: every named export of this module is an operation, its input type or
 * a schema its row names, and each is public (src/index.ts exports them all). A row is written
 * with literals only (a path as a plain string, not a template of `API_PREFIX`, which a bundler
 * must keep in case it has side effects), so that a bundle drops every row, and its schemas,
 * whose function it does not use.
 * @module
 */
import { json } from "./json-body.js";
import { operation } from "./operation.js";
import type { OperationRow } from "./operation-row.js";
import { Page, ProspectLog, ProspectLogCreate, WebhookSubscription, WebhookSubscriptionUpdate } from "./schemas/index.js";
import type { AcceptReadonly } from "./schemas/types.js";

// A row's request and result schemas are public with it (src/index.ts exports this module whole).
export { Page, ProspectLog, ProspectLogCreate, WebhookSubscription, WebhookSubscriptionUpdate };

/** The row of {@link createProspectLog}. */
const createProspectLogRow = {
  name: "createProspectLog",
  method: "POST",
  path: "/v0/prospect_logs",
  params: [],
  request: /* @__PURE__ */ json(ProspectLogCreate),
  result: ProspectLog,
  success: 201,
  errors: [400, 401, 409, 413, 415, 422, 429, 500],
  retry: "idempotency-key",
  docs: {
    summary: "Create a prospect log entry",
    description:
      "Records an activity against a prospect, creating the prospect first when none matches (`createdProspect`). A repeated `idempotencyKey` with the same body replays the first answer, with `idempotent-replayed: true`.",
    input: "The activity; `source` and `payload` are required, `type` defaults to `webhook`.",
    result: "The stored entry.",
  },
} as const satisfies OperationRow;

/**
 * Create a prospect log entry.
 *
 * Records an activity against a prospect, creating the prospect first when none matches
 * (`createdProspect`). A repeated `idempotencyKey` with the same body replays the first answer,
 * with `idempotent-replayed: true`.
 *
 * @remarks
 * Spec 4.1. Retried safely: the SDK sends the `idempotencyKey` you give, or a generated UUID, and
 * the same one on every attempt, so a retry can never create a second entry.
 *
 * @param input - the activity; `source` and `payload` are required, `type` defaults to `webhook`
 * @param options - per-call options
 * @returns the stored entry
 * @throws {RequestValidationError} (as a rejection, like every error here) when the input breaks the spec; nothing is sent
 * @throws {APIError} a subclass per error status ({@link ConflictError}, {@link RateLimitError}, ...) once retries are used up
 * @throws {APIConnectionError} ({@link APITimeoutError}) when no complete response arrived; {@link APIUserAbortError} when `signal` fired
 * @throws {ResponseValidationError} when a 2xx body breaks its schema in `"strict"` mode
 * @example
 * ```ts
 * import { createBaseClient, createProspectLog } from "prospectkit";
 *
 * const client = createBaseClient(); // or createClient(), then client.createProspectLog(...)
 * const log = await createProspectLog(client, { source: "crm", payload: { stage: "demo" }, email: "ada@example.com" });
 * console.log(log.prospectId, log.createdProspect);
 * ```
 * @function
 */
export const createProspectLog = /* @__PURE__ */ operation<ProspectLogCreate, ProspectLog>(createProspectLogRow);

/** Input of {@link getPage}: the IDs of the page group and of the page in it (spec 4.2). */
export interface GetPageParams {
  /** The page group's ID. */
  pageGroupId: string;
  /** The page's ID. */
  pageId: string;
}

/** The row of {@link getPage}. */
const getPageRow = {
  name: "getPage",
  method: "GET",
  path: "/v0/page_groups/{page_group_id}/pages/{page_id}",
  params: [
    { name: "page_group_id", key: "pageGroupId", description: "The page group's ID." },
    { name: "page_id", key: "pageId", description: "The page's ID." },
  ],
  result: Page,
  success: 200,
  errors: [401, 404, 429, 500],
  retry: "safe",
  docs: {
    summary: "Get a page with its published version",
    description:
      "Reads one page of a page group with the version currently published: its number, ID and publication time. A page that was never published has all three fields of `publishedVersion` null; a page or page group that does not exist in your tenant is not found (404).",
    input: "The page group's and the page's IDs.",
    result: "The page; an unpublished page has a `publishedVersion` of three nulls.",
  },
} as const satisfies OperationRow;

/**
 * Get a page with its published version.
 *
 * Reads one page of a page group with the version currently published: its number, ID and
 * publication time. A page that was never published has all three fields of `publishedVersion`
 * null; a page or page group that does not exist in your tenant is not found (404).
 *
 * @remarks
 * Spec 4.2.
 *
 * @param input - the page group's and the page's IDs
 * @param options - per-call options
 * @returns the page; an unpublished page has a `publishedVersion` of three nulls
 * @throws {RequestValidationError} (as a rejection, like every error here) when the input breaks the spec; nothing is sent
 * @throws {APIError} a subclass per error status ({@link NotFoundError}, {@link RateLimitError}, ...) once retries are used up
 * @throws {APIConnectionError} ({@link APITimeoutError}) when no complete response arrived; {@link APIUserAbortError} when `signal` fired
 * @throws {ResponseValidationError} when a 2xx body breaks its schema in `"strict"` mode
 * @example
 * ```ts
 * import { createBaseClient, getPage } from "prospectkit";
 *
 * const client = createBaseClient(); // or createClient(), then client.getPage(...)
 * const page = await getPage(client, { pageGroupId: "pagegroup_1", pageId: "page_1" });
 * console.log(page.effectiveName, page.publishedVersion.versionNumber);
 * ```
 * @function
 */
export const getPage = /* @__PURE__ */ operation<GetPageParams, Page>(getPageRow);

/**
 * Input of {@link updateWebhookSubscription}: the subscription's ID and the changes (spec 4.3).
 * An interface, so that editors and declaration files show its name.
 */
export interface UpdateWebhookSubscriptionParams extends AcceptReadonly<WebhookSubscriptionUpdate> {
  /** The webhook subscription's ID. */
  subscriptionId: string;
}

/** The row of {@link updateWebhookSubscription}. */
const updateWebhookSubscriptionRow = {
  name: "updateWebhookSubscription",
  method: "PATCH",
  path: "/v0/webhook_subscriptions/{subscription_id}",
  params: [{ name: "subscription_id", key: "subscriptionId", description: "The webhook subscription's ID." }],
  request: /* @__PURE__ */ json(WebhookSubscriptionUpdate),
  result: WebhookSubscription,
  success: 200,
  errors: [400, 401, 404, 413, 415, 429, 500],
  retry: "idempotent",
  docs: {
    summary: "Update a webhook subscription",
    description: "A partial update of its `url`, `events` or `active` flag: omitted fields keep their value and `{}` changes nothing.",
    input: "The subscription's ID and the fields to change.",
    result: "The subscription after the update.",
  },
} as const satisfies OperationRow;

/**
 * Update a webhook subscription.
 *
 * A partial update of its `url`, `events` or `active` flag: omitted fields keep their value and
 * `{}` changes nothing.
 *
 * @remarks
 * Spec 4.3.
 *
 * @param input - the subscription's ID and the fields to change
 * @param options - per-call options
 * @returns the subscription after the update
 * @throws {RequestValidationError} (as a rejection, like every error here) when the input breaks the spec; nothing is sent
 * @throws {APIError} a subclass per error status ({@link NotFoundError}, {@link RateLimitError}, ...) once retries are used up
 * @throws {APIConnectionError} ({@link APITimeoutError}) when no complete response arrived; {@link APIUserAbortError} when `signal` fired
 * @throws {ResponseValidationError} when a 2xx body breaks its schema in `"strict"` mode
 * @example
 * ```ts
 * import { createBaseClient, updateWebhookSubscription } from "prospectkit";
 *
 * const client = createBaseClient(); // or createClient(), then client.updateWebhookSubscription(...)
 * const subscription = await updateWebhookSubscription(client, { subscriptionId: "webhooksubscription_1", active: false });
 * ```
 * @function
 */
export const updateWebhookSubscription = /* @__PURE__ */ operation<UpdateWebhookSubscriptionParams, WebhookSubscription>(
  updateWebhookSubscriptionRow,
);

/**
 * The table: every row above, in the spec's order, and the schemas the rows name by the names
 * they are exported under above (the OpenAPI document's components). The default export, so that
 * `export *` (the SDK entry) leaves it out and a bundle that does not build a client drops it;
 * `src/operation-table.ts` fails to compile when an operation function has no row here.
 */
export default {
  rows: [createProspectLogRow, getPageRow, updateWebhookSubscriptionRow],
  schemas: { Page, ProspectLog, ProspectLogCreate, WebhookSubscription, WebhookSubscriptionUpdate },
} as const;
