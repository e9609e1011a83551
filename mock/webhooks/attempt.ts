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

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it aborts; the listener
 * goes with the outcome, so a long-lived signal collects none.
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
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

/**
 * Reads at most {@link RESPONSE_EXCERPT_BYTES} of a body, then cancels the rest (a 10 MB answer
 * costs 1 KiB). When `signal` aborts first (a body that trickles past the timeout), the read is
 * cancelled at once and what arrived so far is kept.
 */
async function excerpt(response: Response, signal: AbortSignal): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener("abort", cancel, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_EXCERPT_BYTES && !signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // The body failed or was cut short: keep what arrived.
  } finally {
    signal.removeEventListener("abort", cancel);
    reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) bytes.set(chunk, (offset += chunk.length) - chunk.length);
  return new TextDecoder().decode(bytes.subarray(0, RESPONSE_EXCERPT_BYTES));
}

/** The reason an attempt's controller aborts with when its time is up. */
function timeoutReason(timeoutMs: number): DOMException {
  return new DOMException(`No answer within ${timeoutMs} ms.`, "TimeoutError");
}

/**
 * POSTs one signed attempt without following redirects; calls `fetch` synchronously, before its
 * first await. The attempt owns its abort: one controller, aborted by its timeout, by `stop` (a
 * shutdown or a reset) or, at the latest, when the attempt ends, so the request and its body are
 * released on every path (answered, timed out, refused, cut short). The sender gets the
 * controller's own signal beside the request (a `Request`'s signal follows it only while the
 * `Request` lives), and the pending timeout holds the controller: no step of the abort is weakly
 * held, so a garbage collection cannot lose it.
 */
async function send(
  input: AttemptInput,
  headers: Record<string, string>,
  fetch: WebhookFetch,
  timeoutMs: number,
  stop: AbortSignal | undefined,
): Promise<Omit<AttemptOutcome, "durationMs">> {
  const controller = new AbortController();
  // A timeout signal with a listener is kept alive until it fires or the listener goes (and its
  // timer never holds the process open); the listener holds the controller.
  const timeout = AbortSignal.timeout(timeoutMs);
  const timedOut = () => controller.abort(timeoutReason(timeoutMs));
  timeout.addEventListener("abort", timedOut, { once: true });
  const stopped = () => controller.abort(stop!.reason);
  stop?.addEventListener("abort", stopped, { once: true });
  try {
    if (stop?.aborted) throw stop.reason;
    const { signal } = controller;
    const request = new Request(input.url, { method: "POST", headers, body: input.body, redirect: "manual", signal });
    const response = await untilAborted(fetch(request, { signal }), signal);
    const text = await excerpt(response, controller.signal);
    const ok = response.status >= 200 && response.status <= 299;
    const redirect = response.status >= 300 && response.status <= 399;
    const reason = ok ? null : redirect ? "redirect" : "status";
    return { ok, status: response.status, reason, error: ok ? null : `HTTP ${response.status}`, response: text };
  } catch (error) {
    // A sender may reject with its own error once the controller aborted: the abort's reason is the cause.
    return { ok: false, status: null, response: null, ...failure(controller.signal.aborted ? controller.signal.reason : error, timeoutMs) };
  } finally {
    timeout.removeEventListener("abort", timedOut);
    stop?.removeEventListener("abort", stopped);
    controller.abort(new DOMException("The attempt has ended.", "AbortError"));
  }
}

/** How attempts are made: the sender, the time limit, the clock that times them, what stops them. */
export interface AttemptOptions {
  readonly fetch: WebhookFetch;
  /** How long one attempt may take before it counts as a timeout. */
  readonly timeoutMs: number;
  /** A monotonic clock in milliseconds, for each attempt's duration. */
  readonly elapsedMs: () => number;
  /** Aborts every attempt still running (a shutdown, a reset); an attempt not yet sent is not sent. */
  readonly signal?: AbortSignal;
}

/**
 * Makes the attempts of one run at time `at`, concurrently, and classifies each: a 2xx is
 * success; a redirect (never followed), another status, a refused connection, a DNS or TLS
 * failure or no answer within `timeoutMs` is a failure with its reason. Every attempt is signed
 * first and the requests are then issued in the order given, so the network sees the same
 * sequence on every run. Each outcome is handed to `settle` as soon as it is known. Never throws.
 *
 * @returns one outcome per input, in the same order
 */
export async function attemptAll(
  inputs: readonly AttemptInput[],
  at: Date,
  options: AttemptOptions,
  settle: (index: number, outcome: AttemptOutcome) => void = () => undefined,
): Promise<AttemptOutcome[]> {
  const { fetch, timeoutMs, elapsedMs, signal } = options;
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
      const result = "outcome" in prepared ? prepared.outcome : await send(input, prepared.headers, fetch, timeoutMs, signal);
      const outcome: AttemptOutcome = { ...result, durationMs: Math.max(0, Math.round((elapsedMs() - started) * 10) / 10) };
      settle(i, outcome);
      return outcome;
    }),
  );
}
