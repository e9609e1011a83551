/**
 * The mock's webhook delivery engine: Standard Webhooks envelopes and signatures, the Svix retry
 * schedule and 5-day auto-deactivation, on an injected clock. Framework-free; web standards only.
 * @module
 */
export { createWebhookDispatcher } from "./dispatcher.js";
export {
  applyWebhookChange,
  clearWebhookReplay,
  endWebhookReplay,
  SavedDeliverySchema,
  SavedEventSchema,
  SavedWebhooksSchema,
  startWebhookReplay,
  type WebhookReplay,
} from "./saved.js";
export {
  WEBHOOK_ATTEMPT_TIMEOUT_MS,
  WEBHOOK_DEACTIVATE_AFTER_MS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_RETRY_DELAYS_MS,
} from "./schedule.js";
export { AttemptFailureReasonSchema, DeliveryAttemptSchema, DeliverySchema, DeliveryStatusSchema } from "./schemas.js";
export { WebhookSecretSchema, webhookSecretFromBytes } from "./secret.js";
export type {
  AttemptFailureReason,
  Delivery,
  DeliveryAttempt,
  DeliveryStatus,
  FailingSince,
  SavedDelivery,
  SavedWebhooks,
  WebhookChange,
  WebhookDispatcherOptions,
  WebhookFetch,
  WebhookOptions,
  WebhookTarget,
} from "./types.js";
