/**
 * prospectkit: the TypeScript SDK for the Prospect Activity, Page and Webhook Subscription API.
 * @module prospectkit
 */
export * from "./schemas/index.js";
export * from "./webhooks/index.js";
export {
  type BaseClient,
  createBaseClient,
  createClient,
  createProspectLog,
  getPage,
  type ProspectKitClient,
  updateWebhookSubscription,
} from "./client.js";
export * from "./errors/index.js";
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
export type { AcceptReadonly, GetPageParams, ReadonlyArrayOk, UpdateWebhookSubscriptionParams } from "./operations.js";
export type { ClientOptions, Fetch, HeaderOptions, RequestOptions, ValidationMode } from "./options.js";
export { REDACTED } from "./redact.js";
export type { APIPromise, WithResponse } from "./request.js";
