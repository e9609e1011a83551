/**
 * prospectkit: the TypeScript SDK for the Prospect Activity, Page and Webhook Subscription API.
 * Every export is listed by name: a new one is a decision (test/package/exports.test.ts pins the
 * list of each entry point of the packed package).
 * @module prospectkit
 */
export { type BaseClient, createBaseClient } from "./base-client.js";
export { createClient, type ProspectKitClient } from "./client.js";
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConfigurationError,
  ConflictError,
  type ErrorKind,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  ProspectKitError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  UnprocessableEntityError,
} from "./errors/index.js";
export type {
  CallEvent,
  Hooks,
  Logger,
  LogLevel,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  ValidationIssueEvent,
} from "./hooks.js";
export type { OperationFunction } from "./operation.js";
// The operations, each with its input type and the schemas its row names: every export of the operation table is public, so a row added there is exported here.
export * from "./operations.js";
export type { ClientOptions, Fetch, HeaderOptions, RequestOptions, ValidationMode } from "./options.js";
export type { APIPromise, WithResponse } from "./request.js";
export {
  DateTime,
  DEFAULT_PROSPECT_LOG_TYPE,
  E164_PATTERN,
  ERROR_CODES,
  type ErrorCode,
  FieldError,
  HttpUrl,
  type JsonObject,
  JsonObjectSchema,
  MAX_URL_LENGTH,
  OpaqueId,
  PROBLEM_CONTENT_TYPE,
  PROSPECT_ID_PATTERN,
  PROSPECT_LOG_ID_PATTERN,
  ProblemDetails,
  ProspectId,
  type ProspectLogCreateParsed,
  ProspectLogId,
  PublishedVersion,
  WEBHOOK_EVENT_KINDS,
  WebhookEvent,
  WebhookEventKind,
  WebhookEventKindInResponse,
} from "./schemas/index.js";
export {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  type SignWebhookOptions,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  WEBHOOK_HEADERS,
  WEBHOOK_SECRET_PREFIX,
  type WebhookBody,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
} from "./webhooks/index.js";
