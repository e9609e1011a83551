import { type ErrorKind, ProspectKitError } from "./prospectkit-error.js";

/**
 * Why a webhook was rejected, as a machine-readable code:
 * - `invalid_secret`: the configured secret is not `whsec_` followed by base64 key bytes;
 * - `missing_header`: `webhook-id`, `webhook-timestamp` or `webhook-signature` is absent or empty;
 * - `invalid_timestamp`: `webhook-timestamp` is not a whole number of Unix seconds;
 * - `timestamp_too_old` / `timestamp_too_new`: the timestamp lies outside the tolerance (replay protection);
 * - `invalid_signature`: no `v1` signature in `webhook-signature` matches the message;
 * - `invalid_payload`: the signature matches but the body is not a webhook event envelope.
 */
export type WebhookVerificationErrorCode =
  | "invalid_secret"
  | "missing_header"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "invalid_signature"
  | "invalid_payload";

/**
 * A webhook that must not be trusted: thrown by `verifyWebhook` (and by `signWebhook` for a
 * malformed secret). Answer such a request with a 4xx and do not act on it. The message names
 * the rule that failed and never contains the secret, a signature or the body.
 *
 * @example
 * ```ts
 * try {
 *   const event = await verifyWebhook({ secret, headers: request.headers, body });
 * } catch (error) {
 *   if (WebhookVerificationError.is(error)) return new Response(error.code, { status: 400 });
 *   throw error;
 * }
 * ```
 */
export class WebhookVerificationError extends ProspectKitError {
  override get kind(): ErrorKind {
    return "WebhookVerificationError";
  }

  /** Which rule rejected the webhook. */
  readonly code: WebhookVerificationErrorCode;

  /**
   * Creates the error of one failed rule.
   * @param code - which rule rejected the webhook
   * @param message - a readable explanation that contains no secret material
   */
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
