/**
 * Receiving webhooks: Standard Webhooks signing and verification on Web Crypto only, so it runs
 * in Node, browsers, Deno, Bun and workers. The mock signs its deliveries with the same code.
 * @module
 */
export { WebhookVerificationError, type WebhookVerificationErrorCode } from "../errors/webhook-verification-error.js";
export { WEBHOOK_HEADERS, type WebhookHeaders } from "./headers.js";
export {
  type SignWebhookOptions,
  signWebhook,
  WEBHOOK_SECRET_PREFIX,
  type WebhookBody,
} from "./signature.js";
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, type VerifyWebhookOptions, verifyWebhook } from "./verify.js";
