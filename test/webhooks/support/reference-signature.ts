import { createHmac } from "node:crypto";

/** The Standard Webhooks / Svix documentation's example secret (24 key bytes). */
export const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/**
 * The signature computed independently of the code under test: node:crypto's HMAC-SHA256 of
 * `id.timestamp.body` with the base64-decoded bytes after `whsec_`.
 */
export function referenceSignature(secret: string, id: string, timestamp: number | string, body: string | Uint8Array): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.`);
  return `v1,${mac.update(body).digest("base64")}`;
}

/** A valid event body. */
export const EVENT = {
  id: "event_01hzy8k3m4n5p6q7r8s9t0v1wx",
  type: "page.version.published",
  createdAt: "2024-02-29T12:00:00.000Z",
  data: { pageId: "page_01", versionNumber: 3 },
};

/** The receiver's clock in the tests: 2024-02-29T12:00:00Z, and the same in Unix seconds. */
export const NOW = new Date("2024-02-29T12:00:00.000Z");
export const NOW_SECONDS = NOW.getTime() / 1000;

/** Headers of a correctly signed delivery of `body` (reference signature, not the code under test). */
export function signedHeaders(body: string, timestamp = NOW_SECONDS, id = EVENT.id, secret = SECRET): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": referenceSignature(secret, id, timestamp, body),
  };
}
