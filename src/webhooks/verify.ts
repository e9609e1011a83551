import { ConfigurationError } from "../errors/prospectkit-error.js";
import { WebhookVerificationError } from "../errors/webhook-verification-error.js";
import { toFieldErrors } from "../schemas/issues.js";
import { WebhookEvent } from "../schemas/webhook-event.js";
import { readHeader, WEBHOOK_HEADERS, type WebhookHeaders } from "./headers.js";
import { computeSignature, decodeSecret, type WebhookBody } from "./signature.js";

/** Default tolerance, in seconds, between a webhook's timestamp and the receiver's clock. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** What {@link verifyWebhook} checks. */
export interface VerifyWebhookOptions {
  /** The subscription's secret: `whsec_` followed by the base64-encoded key. */
  secret: string;
  /** The request's headers: a `Headers` object or a plain record such as Node's `req.headers`. */
  headers: WebhookHeaders;
  /** The raw body exactly as received (not re-serialized JSON: any change breaks the signature). */
  body: WebhookBody;
  /** How far, in seconds, the timestamp may lie from `now`, either way. Default 300. */
  toleranceSeconds?: number;
  /** The receiver's current time. Default: the system clock. */
  now?: Date;
}

/** Compares two strings in time that depends only on their lengths, never on where they differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function requireHeader(headers: WebhookHeaders, name: string): string {
  const value = readHeader(headers, name);
  if (value === undefined) throw new WebhookVerificationError("missing_header", `The ${name} header is missing.`);
  return value;
}

function checkTimestamp(timestamp: string, toleranceSeconds: number, now: Date): void {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (!(toleranceSeconds >= 0) || !Number.isFinite(nowSeconds)) {
    throw new ConfigurationError("verifyWebhook needs a non-negative toleranceSeconds and a valid now.");
  }
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError("invalid_timestamp", `The ${WEBHOOK_HEADERS.timestamp} header must be whole Unix seconds.`);
  }
  const age = nowSeconds - Number(timestamp);
  if (age > toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `The webhook timestamp is more than ${toleranceSeconds} s in the past (a replay, or a wrong clock).`,
    );
  }
  if (-age > toleranceSeconds) {
    throw new WebhookVerificationError(
      "timestamp_too_new",
      `The webhook timestamp is more than ${toleranceSeconds} s in the future (a wrong clock).`,
    );
  }
}

function parseEvent(body: WebhookBody): WebhookEvent {
  let input: unknown;
  try {
    input = JSON.parse(typeof body === "string" ? body : new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError("invalid_payload", "The webhook body is not valid JSON.");
  }
  const result = WebhookEvent.safeParse(input);
  if (!result.success) {
    const problems = toFieldErrors(result.error.issues, input).map((error) => error.detail);
    throw new WebhookVerificationError("invalid_payload", `The webhook body is not an event: ${problems.join("; ")}.`);
  }
  return result.data;
}

/**
 * Verifies a received webhook the Standard Webhooks way and returns its event. Checks, in
 * order: the secret's form, the three `webhook-*` headers, the timestamp against `now` (replay
 * protection, `toleranceSeconds` either way), then the signature: any one of the space-separated
 * `v1,<base64>` entries of `webhook-signature` must equal the HMAC-SHA256 of `id.timestamp.body`,
 * compared in constant time. Only then is the body parsed. Uses only Web Crypto.
 *
 * @param options - the secret, the request's headers, its raw body, and optionally the tolerance and clock
 * @returns the event `{ id, type, createdAt, data }`; de-duplicate on `id`, which stays the same across retries
 * @throws {@link WebhookVerificationError} when the webhook must not be trusted; its `code` says why
 *   and its message never contains the secret, a signature or the body
 * @throws ConfigurationError when `toleranceSeconds` is negative or not a number, or `now` is an invalid date
 * @example
 * ```ts
 * export async function POST(request: Request): Promise<Response> {
 *   const body = await request.text(); // the raw body: never JSON.parse and re-stringify first
 *   const event = await verifyWebhook({ secret: process.env.WEBHOOK_SECRET!, headers: request.headers, body });
 *   if (event.type === "page.version.published") console.log(event.data);
 *   return new Response(null, { status: 204 });
 * }
 * ```
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<WebhookEvent> {
  const { headers, body, toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS, now = new Date() } = options;
  const key = decodeSecret(options.secret);
  const id = requireHeader(headers, WEBHOOK_HEADERS.id);
  const timestamp = requireHeader(headers, WEBHOOK_HEADERS.timestamp);
  const signatures = requireHeader(headers, WEBHOOK_HEADERS.signature);
  checkTimestamp(timestamp, toleranceSeconds, now);

  const expected = await computeSignature(key, id, timestamp, body);
  let matched = false;
  // entries are space-separated; a runtime that joins repeated header lines (Headers, Node's
  // req.headers) puts ", " between them, so a comma right before the space is a separator too
  for (const entry of signatures.split(/,?\s+/)) {
    const comma = entry.indexOf(",");
    const matches = comma > 0 && entry.slice(0, comma) === "v1" && constantTimeEqual(entry.slice(comma + 1), expected);
    matched = matches || matched;
  }
  if (!matched) {
    throw new WebhookVerificationError(
      "invalid_signature",
      `No v1 signature in the ${WEBHOOK_HEADERS.signature} header matches the message and the secret.`,
    );
  }
  return parseEvent(body);
}
