/**
 * prospectkit/mock/core: the reference implementation of the API on in-memory state, as a standard
 * fetch function (`api.fetch`), without MSW. For runtimes or suites that do not install msw
 * (workers, Deno, a plain `api.fetch` test suite) and for the standalone server. Everything here is
 * also exported by `prospectkit/mock`, whose `createMockApi` adds `api.handlers` for MSW.
 * @module prospectkit/mock/core
 */

export { OPERATIONS, type OperationId } from "../src/operation-table.js";
export { WEBHOOK_EVENT_KINDS } from "../src/schemas/index.js";
export { type PersistStateOptions, persistState } from "./browser/persist-state.js";
export { createMockApi, type IsolatedTenant, type MockApi, type MockTenant, type MockWebhooks, type WebhookScope } from "./create-mock-api.js";
export type { Fault, FaultOptions, FaultTarget, MockFaults, PendingFault } from "./faults/faults.js";
export type { FaultMatch, FaultMatchValue } from "./faults/match.js";
export type { FaultNearMiss } from "./faults/near-misses.js";
export type { Clock } from "./lib/clock.js";
export { MockStateError } from "./lib/errors.js";
export type { Seed } from "./lib/random.js";
export type { Outcome as MockOutcome } from "./mock-api.js";
export type { MockChange, MockChangeListener, MockChanges } from "./observe/changes.js";
export type { Har, HarEntry, HarNameValue } from "./observe/har.js";
export type { NearMiss, NearMissDifference } from "./observe/near-miss.js";
export type { LoggedRequest, RequestLog } from "./observe/request-log.js";
export { DEFAULT_API_KEY, DEFAULT_BASE_URL, DEFAULT_MAX_TENANTS, DEFAULT_SEED, type MockApiOptions } from "./options.js";
export { MAX_BODY_BYTES } from "./pipeline/body.js";
export type { MockState } from "./state/index.js";
export type {
  ApiKeyInput,
  FormEventInput,
  IdentifierInput,
  PageGroupInput,
  PageInput,
  PageUpdateInput,
  PageVersionInput,
  ProcessInput,
  ProspectInput,
  SubscriptionInput,
  TenantInput,
  TenantOption,
} from "./state/inputs.js";
export { FORM_EVENT_KINDS } from "./state/inputs.js";
export { normaliseLinkedinUrl } from "./state/linkedin.js";
export type { PageGroupsApi, PagesApi, PageVersionsApi } from "./state/pages-api.js";
export { DEFAULT_COMPUTED_NAME } from "./state/pages-api.js";
export { IDEMPOTENCY_WINDOW_MS } from "./state/prospect-logs.js";
export type { ProspectLogsApi, ProspectsApi } from "./state/prospects-api.js";
export type {
  PageGroupRecord,
  PageRecord,
  PageVersionRecord,
  PageVersionStatus,
  PreviousSecret,
  ProspectLogRecord,
  ProspectRecord,
  TenantRecord,
  WebhookSubscriptionRecord,
} from "./state/records.js";
export type { ApiKeysApi, TenantsApi } from "./state/tenants-api.js";
export type { FormEventKind, FormsApi, WebhookSubscriptionsApi } from "./state/webhook-subscriptions-api.js";
export type { Delivery, DeliveryAttempt, DeliveryStatus, WebhookFetch, WebhookOptions } from "./webhooks/index.js";
export type { AttemptFailureReason } from "./webhooks/types.js";
