import { WebhookVerificationError } from "../errors/webhook-verification-error.js";
import { decodeBase64, encodeBase64 } from "./base64.js";

/** Every webhook secret starts with this prefix; the rest is the base64-encoded HMAC key. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** The raw body of a webhook as received: text, or bytes such as a Node `Buffer`. */
export type WebhookBody = string | Uint8Array;

const encoder = /* @__PURE__ */ new TextEncoder();

/**
 * Decodes a `whsec_` secret into its key bytes.
 * @throws {@link WebhookVerificationError} `invalid_secret` (the message never repeats the secret)
 * @internal
 */
export function decodeSecret(secret: string): Uint8Array<ArrayBuffer> {
  const key =
    typeof secret === "string" && secret.startsWith(WEBHOOK_SECRET_PREFIX) ? decodeBase64(secret.slice(WEBHOOK_SECRET_PREFIX.length)) : undefined;
  if (key === undefined || key.length === 0) {
    throw new WebhookVerificationError("invalid_secret", `The webhook secret must be "${WEBHOOK_SECRET_PREFIX}" followed by the base64-encoded key.`);
  }
  return key as Uint8Array<ArrayBuffer>;
}

/**
 * The base64 HMAC-SHA256 of `id.timestamp.body` under `key`: the part after `v1,` of a
 * Standard Webhooks signature. The one signing routine of the project (mock and SDK).
 * @param timestamp - the `webhook-timestamp` header value exactly as sent
 * @internal
 */
export async function computeSignature(key: Uint8Array<ArrayBuffer>, id: string, timestamp: string, body: WebhookBody): Promise<string> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const content = typeof body === "string" ? encoder.encode(body) : body;
  const message = new Uint8Array(prefix.length + content.length);
  message.set(prefix);
  message.set(content, prefix.length);
  const hmacKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return encodeBase64(new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, message)));
}

/** What {@link signWebhook} signs. */
export interface SignWebhookOptions {
  /** The subscription's secret: `whsec_` followed by the base64-encoded key. */
  secret: string;
  /** The event ID, sent as `webhook-id`. */
  id: string;
  /** The attempt's Unix time in whole seconds, sent as `webhook-timestamp`. */
  timestamp: number;
  /** The exact body that is sent. */
  body: WebhookBody;
}

/**
 * Signs a webhook the Standard Webhooks way: `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`
 * with the key bytes of the `whsec_` secret. Send the result as the `webhook-signature` header.
 * Uses only Web Crypto, so it runs in Node, browsers, Deno, Bun and workers.
 *
 * @param options - the secret, event ID, Unix timestamp in seconds and exact body
 * @returns the signature header value, for example `v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=`
 * @throws {@link WebhookVerificationError} `invalid_secret` for a malformed secret, `missing_header`
 *   for an empty ID, `invalid_timestamp` for a timestamp that is not whole non-negative seconds:
 *   nothing is signed that {@link verifyWebhook} would reject for its form
 * @example
 * ```ts
 * const signature = await signWebhook({ secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", id, timestamp: 1614265330, body });
 * ```
 */
export async function signWebhook(options: SignWebhookOptions): Promise<string> {
  const key = decodeSecret(options.secret);
  if (typeof options.id !== "string" || options.id.trim() === "") {
    throw new WebhookVerificationError("missing_header", "A webhook ID must be a non-empty string.");
  }
  if (!Number.isSafeInteger(options.timestamp) || options.timestamp < 0) {
    throw new WebhookVerificationError("invalid_timestamp", "A webhook timestamp must be whole Unix seconds.");
  }
  return `v1,${await computeSignature(key, options.id, String(options.timestamp), options.body)}`;
}
