import * as z from "zod/mini";
import { decodeBase64, encodeBase64 } from "../../src/webhooks/base64.js";
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

/** Whether `text` is a secret `signWebhook` and `verifyWebhook` accept: `whsec_` and a non-empty base64 key. */
function isWebhookSecret(text: string): boolean {
  return text.startsWith(WEBHOOK_SECRET_PREFIX) && (decodeBase64(text.slice(WEBHOOK_SECRET_PREFIX.length))?.length ?? 0) > 0;
}

/** A Standard Webhooks signing secret as stored: `whsec_` and the base64 key (the pattern is what the OpenAPI document shows). */
export const WebhookSecretSchema = z
  .string()
  .check(z.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/), z.refine(isWebhookSecret, { error: "must be whsec_ followed by a base64 key" }));
