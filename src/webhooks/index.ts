/**
 * Receiving webhooks: Standard Webhooks signing and verification on Web Crypto only, so it runs
 * in Node, browsers, Deno, Bun and workers. The mock signs its deliveries with the same code.
 * @module
 */
export { type WebhookVerificationErrorCode, WebhookVerificationError } from "../errors/webhook-verification-error.js";
export { WEBHOOK_HEADERS, type WebhookHeaders } from "./headers.js";
export {
  signWebhook,
  type SignWebhookOptions,
  type WebhookBody,
  WEBHOOK_SECRET_PREFIX,
} from "./signature.js";
export { DEFAULT_WEBHOOK_TOLERANCE_SECONDS, verifyWebhook, type VerifyWebhookOptions } from "./verify.js";
