/**
 * The spec as code: every rule of the API's bodies, written once as Zod schemas and used by
 * both the SDK (to validate requests and responses) and the mock (to validate what it receives).
 * @module
 */
export { WEBHOOK_EVENT_KINDS, WebhookEventKind, WebhookEventKindInResponse } from "./events.js";
export { toFieldErrors, toJsonPointer } from "./issues.js";
export { Page, PublishedVersion } from "./page.js";
export {
  DateTime,
  E164_PATTERN,
  HttpUrl,
  type JsonObject,
  JsonObjectSchema,
  MAX_URL_LENGTH,
  OpaqueId,
  PROSPECT_ID_PATTERN,
  PROSPECT_LOG_ID_PATTERN,
  ProspectId,
  ProspectLogId,
} from "./primitives.js";
export { ERROR_CODES, type ErrorCode, FieldError, PROBLEM_CONTENT_TYPE, ProblemDetails } from "./problem.js";
export {
  DEFAULT_PROSPECT_LOG_TYPE,
  ProspectLog,
  ProspectLogCreate,
  type ProspectLogCreateParsed,
} from "./prospect-log.js";
export type { KnownFields } from "./types.js";
export { WebhookEvent } from "./webhook-event.js";
export { WebhookSubscription, WebhookSubscriptionUpdate } from "./webhook-subscription.js";
