import {
  createProspectLogOperation,
  type GetPageParams,
  getPageOperation,
  type UpdateWebhookSubscriptionParams,
  updateWebhookSubscriptionOperation,
} from "./operations.js";
import { type ClientOptions, type RequestOptions, resolveSettings, type Settings } from "./options.js";
import { type APIPromise, call, type Operation } from "./request.js";
import type { Page, ProspectLog, ProspectLogCreate, WebhookSubscription } from "./schemas/index.js";

/**
 * A configured connection to the API without operations: pass it to the standalone operation
 * functions ({@link createProspectLog}, {@link getPage}, {@link updateWebhookSubscription}) so
 * that a bundle carries only the operations it uses. The API key is held out of sight: it is
 * not a property, so logging the client never shows it.
 */
export interface BaseClient {
  /** The API's host root the client calls (without `/v0`). */
  readonly baseUrl: string;
}

/** The client: every operation of the API as a method. Create it with {@link createClient}. */
export interface ProspectKitClient extends BaseClient {
  /**
   * Records an activity against a prospect, creating the prospect if needed (spec 4.1).
   * Retried safely: an `idempotencyKey` is generated when you give none and reused on every attempt.
   * @param body - the log entry; `source` and `payload` are required, `type` defaults to `webhook`
   * @param options - per-call options
   * @returns the stored log entry
   */
  createProspectLog(body: ProspectLogCreate, options?: RequestOptions): APIPromise<ProspectLog>;
  /**
   * Reads a page with a summary of its published version (spec 4.2).
   * @param params - the page group's and the page's IDs
   * @param options - per-call options
   * @returns the page
   */
  getPage(params: GetPageParams, options?: RequestOptions): APIPromise<Page>;
  /**
   * Changes a webhook subscription's `url`, `events` or `active` flag (spec 4.3).
   * @param params - the subscription's ID and the fields to change
   * @param options - per-call options
   * @returns the subscription after the change
   */
  updateWebhookSubscription(params: UpdateWebhookSubscriptionParams, options?: RequestOptions): APIPromise<WebhookSubscription>;
}

const settingsOf = /* @__PURE__ */ new WeakMap<BaseClient, Settings>();

/**
 * Creates a {@link BaseClient}: the configuration and transport, without operations.
 * @param options - as for {@link createClient}
 * @returns the base client
 * @throws {ConfigurationError} as {@link createClient}
 * @example
 * ```ts
 * import { createBaseClient, getPage } from "prospectkit";
 *
 * const client = createBaseClient({ apiKey: process.env.PROSPECTKIT_API_KEY, baseUrl: "https://api.example.com" });
 * const page = await getPage(client, { pageGroupId: "pagegroup_1", pageId: "page_1" });
 * ```
 */
export function createBaseClient(options: ClientOptions = {}): BaseClient {
  const settings = resolveSettings(options);
  const client = { baseUrl: settings.baseUrl };
  settingsOf.set(client, settings);
  return client;
}

function callWithClient<T, Input>(client: BaseClient, operation: Operation<Input>, input: Input, options?: RequestOptions): APIPromise<T> {
  return call<T, Input>(settingsOf.get(client), operation, input, options);
}

/**
 * {@link ProspectKitClient.createProspectLog} as a standalone function (tree-shakable).
 * @param client - a client from {@link createBaseClient} or {@link createClient}
 * @param body - the log entry
 * @param options - per-call options
 * @returns the stored log entry
 * @throws {RequestValidationError} (as a rejection, like every error here) when the input breaks the spec; nothing is sent
 * @throws {APIError} a subclass per error status ({@link NotFoundError}, {@link RateLimitError}, ...) once retries are used up
 * @throws {APIConnectionError} ({@link APITimeoutError}) when no complete response arrived; {@link APIUserAbortError} when `signal` fired
 * @throws {ResponseValidationError} when a 2xx body breaks its schema in `"strict"` mode
 * @example
 * ```ts
 * import { createBaseClient, createProspectLog } from "prospectkit";
 *
 * const client = createBaseClient();
 * const log = await createProspectLog(client, { source: "crm", payload: { stage: "demo" }, email: "ada@example.com" });
 * console.log(log.prospectId, log.createdProspect);
 * ```
 */
export function createProspectLog(client: BaseClient, body: ProspectLogCreate, options?: RequestOptions): APIPromise<ProspectLog> {
  return callWithClient(client, createProspectLogOperation, body, options);
}

/**
 * {@link ProspectKitClient.getPage} as a standalone function (tree-shakable).
 * @param client - a client from {@link createBaseClient} or {@link createClient}
 * @param params - the page group's and the page's IDs
 * @param options - per-call options
 * @returns the page
 * @throws {RequestValidationError} (as a rejection, like every error here) when the input breaks the spec; nothing is sent
 * @throws {APIError} a subclass per error status ({@link NotFoundError}, {@link RateLimitError}, ...) once retries are used up
 * @throws {APIConnectionError} ({@link APITimeoutError}) when no complete response arrived; {@link APIUserAbortError} when `signal` fired
 * @throws {ResponseValidationError} when a 2xx body breaks its schema in `"strict"` mode
 * @example
 * ```ts
 * import { createBaseClient, getPage } from "prospectkit";
 *
 * const client = createBaseClient();
 * const page = await getPage(client, { pageGroupId: "pagegroup_1", pageId: "page_1" });
 * console.log(page.effectiveName, page.publishedVersion.versionNumber);
 * ```
 */
export function getPage(client: BaseClient, params: GetPageParams, options?: RequestOptions): APIPromise<Page> {
  return callWithClient(client, getPageOperation, params, options);
}

/**
 * {@link ProspectKitClient.updateWebhookSubscription} as a standalone function (tree-shakable).
 * @param client - a client from {@link createBaseClient} or {@link createClient}
 * @param params - the subscription's ID and the fields to change
 * @param options - per-call options
 * @returns the subscription after the change
 * @throws {RequestValidationError} (as a rejection, like every error here) when the input breaks the spec; nothing is sent
 * @throws {APIError} a subclass per error status ({@link NotFoundError}, {@link RateLimitError}, ...) once retries are used up
 * @throws {APIConnectionError} ({@link APITimeoutError}) when no complete response arrived; {@link APIUserAbortError} when `signal` fired
 * @throws {ResponseValidationError} when a 2xx body breaks its schema in `"strict"` mode
 * @example
 * ```ts
 * import { createBaseClient, updateWebhookSubscription } from "prospectkit";
 *
 * const client = createBaseClient();
 * const subscription = await updateWebhookSubscription(client, { subscriptionId: "webhooksubscription_1", active: false });
 * ```
 */
export function updateWebhookSubscription(
  client: BaseClient,
  params: UpdateWebhookSubscriptionParams,
  options?: RequestOptions,
): APIPromise<WebhookSubscription> {
  return callWithClient(client, updateWebhookSubscriptionOperation, params, options);
}

/**
 * Creates a client for the API.
 *
 * @param options - `apiKey` (default `PROSPECTKIT_API_KEY`), `baseUrl` (the host root without
 *   `/v0`; default `PROSPECTKIT_BASE_URL`), and the defaults of every call: `timeoutMs`
 *   (60 000 per attempt), `totalTimeoutMs`, `maxRetries` (2), `headers`, `fetch`,
 *   `validateRequests` (true), `validateResponses` (`"strict"`), logging and hooks
 * @returns the client
 * @throws {ConfigurationError} when the key is missing, the base URL is not an absolute http(s)
 *   URL (or ends in `/v0`), an option is out of range, or no `fetch` exists
 *
 * @example
 * ```ts
 * import { createClient, NotFoundError } from "prospectkit";
 *
 * const client = createClient({ apiKey: process.env.PROSPECTKIT_API_KEY, baseUrl: "https://api.example.com" });
 * const log = await client.createProspectLog({ source: "crm", payload: { stage: "demo" }, email: "a@b.co" });
 * const { data: page, requestId } = await client.getPage({ pageGroupId, pageId }).withResponse();
 * ```
 */
export function createClient(options?: ClientOptions): ProspectKitClient {
  const client = createBaseClient(options) as ProspectKitClient;
  client.createProspectLog = (body, callOptions) => createProspectLog(client, body, callOptions);
  client.getPage = (params, callOptions) => getPage(client, params, callOptions);
  client.updateWebhookSubscription = (params, callOptions) => updateWebhookSubscription(client, params, callOptions);
  return client;
}
