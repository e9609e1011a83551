import { signWebhook, WEBHOOK_HEADERS } from "../../src/webhooks/index.js";
import { untilAborted } from "../lib/abort.js";
import type { DeliveryAttempt, WebhookFetch } from "./types.js";

/** What one attempt needs to know. */
export interface AttemptInput {
  readonly eventId: string;
  readonly url: string;
  /** Every secret that signs it: one, or two while a secret is being rotated (one `v1,` signature each). */
  readonly secrets: readonly string[];
  readonly body: string;
  /** Aborts this attempt besides the run's own signal (its tenant's reset or deletion). */
  readonly signal?: AbortSignal;
}

/** How one attempt ended. */
export type AttemptOutcome = Pick<DeliveryAttempt, "ok" | "status" | "reason" | "error" | "response" | "durationMs">;

/** How attempts are made: the sender, the time limit, the clock that times them, what stops them. */
export interface AttemptOptions {
  readonly fetch: WebhookFetch;
  readonly timeoutMs: number;
  /** A monotonic clock in milliseconds, for each attempt's duration. */
  readonly elapsedMs: () => number;
  /** Aborts every attempt still running (a shutdown, a reset); an attempt not yet sent is not sent. */
  readonly signal: AbortSignal;
}

/** How much of a receiver's answer an attempt keeps (1 KiB): enough to see an error message, never a large body. */
const RESPONSE_EXCERPT_BYTES = 1024;

/** The codes of a DNS failure, and of a TLS failure (Node's OpenSSL names). */
const DNS_CODES: ReadonlySet<string> = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_NONAME"]);
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
  if (code === undefined) return { reason: "network", error: `network error: ${message}` };
  const reason = code === "ECONNREFUSED" ? "refused" : DNS_CODES.has(code) ? "dns" : TLS_CODE.test(code) ? "tls" : "network";
  return { reason, error: `network error: ${message} (${code})` };
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
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (let size = 0; size < RESPONSE_EXCERPT_BYTES && !signal.aborted; ) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value.subarray(0, RESPONSE_EXCERPT_BYTES - size), { stream: true });
      size += value.length;
    }
  } catch {
    // The body failed or was cut short: keep what arrived.
  } finally {
    signal.removeEventListener("abort", cancel);
    reader.cancel().catch(() => undefined);
  }
  return text + decoder.decode();
}

/**
 * POSTs one signed attempt without following redirects; calls `fetch` before its first await. One
 * controller owns the abort: its timeout, `stop` (a shutdown, a reset) or the attempt's end, so the
 * request is released on every path. The sender gets that signal itself (a `Request`'s signal
 * follows only while the `Request` lives), and nothing in the chain is weakly held.
 */
async function send(input: AttemptInput, headers: Record<string, string>, options: AttemptOptions): Promise<Omit<AttemptOutcome, "durationMs">> {
  const { timeoutMs, signal: stop } = options;
  const controller = new AbortController();
  // A timeout signal with a listener lives until it fires or the listener goes (its timer never holds the process open).
  const timeout = AbortSignal.timeout(timeoutMs);
  const timedOut = () => controller.abort(new DOMException(`No answer within ${timeoutMs} ms.`, "TimeoutError"));
  timeout.addEventListener("abort", timedOut, { once: true });
  const stopped = () => controller.abort(stop.reason);
  stop.addEventListener("abort", stopped, { once: true });
  const own = input.signal;
  const ended = () => controller.abort(own?.reason);
  own?.addEventListener("abort", ended, { once: true });
  try {
    stop.throwIfAborted();
    own?.throwIfAborted();
    const { signal } = controller;
    const request = new Request(input.url, { method: "POST", headers, body: input.body, redirect: "manual", signal });
    const response = await untilAborted(options.fetch(request, { signal }), signal);
    const text = await excerpt(response, signal);
    const ok = response.status >= 200 && response.status <= 299;
    const reason = ok ? null : response.status >= 300 && response.status <= 399 ? "redirect" : "status";
    return { ok, status: response.status, reason, error: ok ? null : `HTTP ${response.status}`, response: text };
  } catch (error) {
    // A sender may reject with its own error once the controller aborted: the abort's reason is the cause.
    return { ok: false, status: null, ...failure(controller.signal.aborted ? controller.signal.reason : error, timeoutMs), response: null };
  } finally {
    timeout.removeEventListener("abort", timedOut);
    stop.removeEventListener("abort", stopped);
    own?.removeEventListener("abort", ended);
    controller.abort(new DOMException("The attempt has ended.", "AbortError"));
  }
}

/**
 * Makes the attempts of one run at time `at`, concurrently, and hands each outcome to `settle` as
 * soon as it is known: a 2xx is success; a redirect (never followed), another status, a refused
 * connection, a DNS or TLS failure or no answer within `timeoutMs` is a failure with its reason.
 * Every attempt is signed first and the requests are then issued in the order given, so the
 * network sees the same sequence on every run. Never rejects unless `settle` throws.
 */
export async function attemptAll(
  inputs: readonly AttemptInput[],
  at: Date,
  options: AttemptOptions,
  settle: (index: number, outcome: AttemptOutcome) => void,
): Promise<void> {
  const signed = await Promise.allSettled(inputs.map((input) => signedHeaders(input, at)));
  await Promise.all(
    inputs.map(async (input, i) => {
      const started = options.elapsedMs();
      const headers = signed[i]!;
      const result =
        headers.status === "fulfilled"
          ? await send(input, headers.value, options)
          : ({ ok: false, status: null, reason: "signing", error: `not signed: ${(headers.reason as Error).message}`, response: null } as const);
      settle(i, { ...result, durationMs: Math.max(0, Math.round((options.elapsedMs() - started) * 10) / 10) });
    }),
  );
}
