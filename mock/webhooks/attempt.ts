import { signWebhook, WEBHOOK_HEADERS } from "../../src/webhooks/index.js";
import type { WebhookFetch } from "./types.js";

/** What one attempt needs to know. */
export interface AttemptInput {
  readonly eventId: string;
  readonly url: string;
  readonly secret: string;
  readonly body: string;
}

/** How one attempt ended. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
}

function failure(error: unknown, timeoutMs: number): AttemptOutcome {
  const timedOut = error instanceof Error && error.name === "TimeoutError";
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, status: null, error: timedOut ? `timeout after ${timeoutMs} ms` : `network error: ${message}` };
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
  return {
    "content-type": "application/json",
    [WEBHOOK_HEADERS.id]: input.eventId,
    [WEBHOOK_HEADERS.timestamp]: String(timestamp),
    [WEBHOOK_HEADERS.signature]: await signWebhook({ secret: input.secret, id: input.eventId, timestamp, body: input.body }),
  };
}

/** POSTs one signed attempt without following redirects; calls `fetch` synchronously, before its first await. */
async function send(input: AttemptInput, headers: Record<string, string>, fetch: WebhookFetch, timeoutMs: number): Promise<AttemptOutcome> {
  try {
    const signal = AbortSignal.timeout(timeoutMs);
    const request = new Request(input.url, { method: "POST", headers, body: input.body, redirect: "manual", signal });
    const response = await Promise.race([fetch(request), whenAborted(signal)]);
    response.body?.cancel().catch(() => undefined);
    const ok = response.status >= 200 && response.status <= 299;
    return { ok, status: response.status, error: ok ? null : `HTTP ${response.status}` };
  } catch (error) {
    return failure(error, timeoutMs);
  }
}

/**
 * Makes the attempts of one run at time `at`, concurrently, and classifies each: a 2xx is
 * success; another status, a network error or no answer within `timeoutMs` is a failure. Every
 * attempt is signed first and the requests are then issued in the order given, so the network
 * sees the same sequence on every run. Never throws.
 *
 * @returns one outcome per input, in the same order
 */
export async function attemptAll(
  inputs: readonly AttemptInput[],
  at: Date,
  fetch: WebhookFetch,
  timeoutMs: number,
): Promise<AttemptOutcome[]> {
  const signed = await Promise.all(
    inputs.map((input) =>
      signedHeaders(input, at).then(
        (headers) => ({ headers }),
        (error: unknown) => ({ outcome: { ok: false, status: null, error: `not signed: ${(error as Error).message}` } }),
      ),
    ),
  );
  return Promise.all(
    inputs.map((input, i) => {
      const prepared = signed[i]!;
      return "outcome" in prepared ? prepared.outcome : send(input, prepared.headers, fetch, timeoutMs);
    }),
  );
}
