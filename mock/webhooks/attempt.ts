import { signWebhook, WEBHOOK_HEADERS } from "../../src/webhooks/index.js";
import type { AttemptFailureReason, WebhookFetch } from "./types.js";

/** What one attempt needs to know. */
export interface AttemptInput {
  readonly eventId: string;
  readonly url: string;
  /** Every secret that signs it: one, or two while a secret is being rotated (one `v1,` signature each). */
  readonly secrets: readonly string[];
  readonly body: string;
}

/** How one attempt ended. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly reason: AttemptFailureReason | null;
  readonly error: string | null;
  /** The first {@link RESPONSE_EXCERPT_BYTES} bytes of the answer's body, as text (null without an answer). */
  readonly response: string | null;
  readonly durationMs: number;
}

/** How much of a receiver's answer an attempt keeps (1 KiB): enough to see an error message, never a large body. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** The error codes of a TLS failure (Node's OpenSSL names). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|EPROTO$|HOSTNAME_MISMATCH$)/;

/** The first `code` on an error's chain of causes (fetch hides the socket's error in `cause`). */
function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 4 || typeof error !== "object" || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  return errorCode(cause, depth + 1) ?? (Array.isArray(errors) ? errorCode(errors[0], depth + 1) : undefined);
}

/** Classifies a rejected attempt: refused, DNS, TLS, timeout or another network error. */
function failure(error: unknown, timeoutMs: number): Pick<AttemptOutcome, "reason" | "error"> {
  if (error instanceof Error && error.name === "TimeoutError") return { reason: "timeout", error: `timeout after ${timeoutMs} ms` };
  const message = error instanceof Error ? error.message : String(error);
  const code = errorCode(error);
  const detail = code === undefined ? message : `${message} (${code})`;
  const reason: AttemptFailureReason =
    code === "ECONNREFUSED"
      ? "refused"
      : code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME"
        ? "dns"
        : code !== undefined && TLS_CODE.test(code)
          ? "tls"
          : "network";
  return { reason, error: `network error: ${detail}` };
}

/** A promise that rejects with the signal's reason when it aborts (and never settles otherwise). */
function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

/** The headers of an attempt at time `at`: signed for that time, so a late retry still passes a receiver's tolerance. */
async function signedHeaders(input: AttemptInput, at: Date): Promise<Record<string, string>> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signatures = await Promise.all(input.secrets.map((secret) => signWebhook({ secret, id: input.eventId, timestamp, body: input.body })));
  return {
    "content-type": "application/json",
    [WEBHOOK_HEADERS.id]: input.eventId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: signatures.join(" "),
  };
}

/** Reads at most {@link RESPONSE_EXCERPT_BYTES} of a body and cancels the rest (a 10 MB answer costs 1 KiB). */
async function excerpt(response: Response): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) bytes.set(chunk, (offset += chunk.length) - chunk.length);
  return new TextDecoder().decode(bytes.subarray(0, RESPONSE_EXCERPT_BYTES));
}

/** POSTs one signed attempt without following redirects; calls `fetch` synchronously, before its first await. */
async function send(
  input: AttemptInput,
  headers: Record<string, string>,
  fetch: WebhookFetch,
  timeoutMs: number,
): Promise<Omit<AttemptOutcome, "durationMs">> {
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const request = new Request(input.url, { method: "POST", headers, body: input.body, redirect: "manual", signal });
    const aborted = whenAborted(signal);
    const response = await Promise.race([fetch(request), aborted]);
    const text = await Promise.race([excerpt(response), aborted]).catch(() => "");
    const ok = response.status >= 200 && response.status <= 299;
    const redirect = response.status >= 300 && response.status <= 399;
    const reason = ok ? null : redirect ? "redirect" : "status";
    return { ok, status: response.status, reason, error: ok ? null : `HTTP ${response.status}`, response: text };
  } catch (error) {
    return { ok: false, status: null, response: null, ...failure(error, timeoutMs) };
  }
}

/**
 * Makes the attempts of one run at time `at`, concurrently, and classifies each: a 2xx is
 * success; a redirect (never followed), another status, a refused connection, a DNS or TLS
 * failure or no answer within `timeoutMs` is a failure with its reason. Every attempt is signed
 * first and the requests are then issued in the order given, so the network sees the same
 * sequence on every run. Each outcome is handed to `settle` as soon as it is known. Never throws.
 *
 * @param elapsedMs - a monotonic clock in milliseconds, for each attempt's duration
 * @returns one outcome per input, in the same order
 */
export async function attemptAll(
  inputs: readonly AttemptInput[],
  at: Date,
  fetch: WebhookFetch,
  timeoutMs: number,
  elapsedMs: () => number,
  settle: (index: number, outcome: AttemptOutcome) => void = () => undefined,
): Promise<AttemptOutcome[]> {
  const signed = await Promise.all(
    inputs.map((input) =>
      signedHeaders(input, at).then(
        (headers) => ({ headers }),
        (error: unknown) => ({
          outcome: { ok: false, status: null, reason: "signing", error: `not signed: ${(error as Error).message}`, response: null } as const,
        }),
      ),
    ),
  );
  return Promise.all(
    inputs.map(async (input, i) => {
      const prepared = signed[i]!;
      const started = elapsedMs();
      const result = "outcome" in prepared ? prepared.outcome : await send(input, prepared.headers, fetch, timeoutMs);
      const outcome: AttemptOutcome = { ...result, durationMs: Math.max(0, Math.round((elapsedMs() - started) * 10) / 10) };
      settle(i, outcome);
      return outcome;
    }),
  );
}
