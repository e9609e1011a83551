import { encodeBase64 } from "../../src/webhooks/base64.js";
import { WEBHOOK_SECRET_PREFIX } from "../../src/webhooks/index.js";

/**
 * Renders key bytes as a webhook secret: `whsec_` + base64. The mock core derives the bytes
 * from its seed, so every subscription's secret is reproducible.
 * @param key - the HMAC key bytes (Standard Webhooks recommends 24 to 64)
 * @returns the secret, which `signWebhook` and `verifyWebhook` accept
 */
export function webhookSecretFromBytes(key: Uint8Array): string {
  return WEBHOOK_SECRET_PREFIX + encodeBase64(key);
}
