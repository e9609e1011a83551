import { createFetch, fetch as globalFetch } from "ofetch";
import { APIConnectionError, APITimeoutError, APIUserAbortError } from "./errors/failures.js";
import type { Redactor } from "./redact.js";

/** A `fetch` the SDK can call: the global one, or any with the same contract (it must honour `signal`). */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** One HTTP exchange: the response and its whole body as text. */
export interface Exchange {
  response: Response;
  text: string;
}

/** What one attempt sends: the path under the base URL, and a body ofetch serialises as JSON. */
export interface AttemptRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: object | undefined;
}

/**
 * The transport of one client: ofetch over the client's `fetch`, set up once with what every
 * attempt shares. ofetch joins the base URL and the path, serialises the JSON body (and sets its
 * `content-type`) and reads the response body as text; the SDK's policy (retries, backoff,
 * `Retry-After`, errors, redaction, validation) stays above it, so ofetch's own retry and
 * error-throwing are off and its JSON parser is not used: the body is parsed by the SDK.
 * @internal
 */
export type Transport = (request: AttemptRequest, signal: AbortSignal) => Promise<Exchange>;

/**
 * Creates the {@link Transport} for `baseUrl` over `fetch`.
 * @param fetch - the injected fetch; without one, ofetch's `fetch`, which looks `globalThis.fetch`
 *   up at each call, so an interceptor (MSW, nock, Playwright) installed later still sees the request
 * @param baseUrl - the API's host root
 * @internal
 */
export function createTransport(fetch: Fetch | undefined, baseUrl: string): Transport {
  const $fetch = createFetch({
    fetch: (fetch as typeof globalThis.fetch | undefined) ?? globalFetch,
    defaults: {
      baseURL: baseUrl,
      retry: false, // retries are the SDK's policy: only where safe, with its backoff and Retry-After
      responseType: "text", // parsed by the SDK, so bad JSON is never quietly turned into a string
      ignoreResponseError: true, // every status comes back as a response; the SDK picks the error class
      redirect: "manual", // the API never redirects, and following one would hand x-api-key to another host
    },
  });
  return async ({ method, path, headers, body }, signal) => {
    const response = await $fetch.raw<string, "text">(path, { method, headers, body: body as Record<string, unknown> | undefined, signal });
    return { response, text: response._data ?? "" };
  };
}

/** ofetch wraps a failed fetch in a FetchError whose `cause` is the runtime's own error. */
function unwrap(error: unknown): unknown {
  const wrapped = error as { name?: unknown; cause?: unknown } | undefined;
  return wrapped?.name === "FetchError" && wrapped.cause !== undefined ? wrapped.cause : error;
}

function causeMessage(cause: unknown): string {
  const error = cause as { message?: unknown; cause?: { message?: unknown } } | undefined;
  const inner = error?.cause?.message;
  return `${String(error?.message ?? cause)}${inner ? ` (${String(inner)})` : ""}`;
}

/**
 * Sends one attempt and reads its body, under its own timeout and the caller's signal. The
 * timer runs until the body has been read, so a server that stalls mid-body times out too (the
 * timeout of ofetch 1.5 ends when the headers arrive, and is skipped when a signal is given, so
 * the SDK keeps this one). The caller's signal never switches the timer off: both abort one
 * controller per attempt.
 *
 * @param transport - the client's transport
 * @param request - what to send
 * @param timeoutMs - this attempt's time limit
 * @param signal - the caller's signal, if any
 * @param attempt - this attempt's number, for the error
 * @param redact - takes the API key out of any error text
 * @returns the response and its body text
 * @throws {APIUserAbortError} when the caller's signal fired
 * @throws {APITimeoutError} when the time limit passed
 * @throws {APIConnectionError} when no complete response arrived
 * @internal
 */
export async function sendAttempt(
  transport: Transport,
  request: AttemptRequest,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  attempt: number,
  redact: Redactor,
): Promise<Exchange> {
  // checked here too: a signal that fired while a hook ran must keep this attempt from being sent
  if (signal?.aborted) throw new APIUserAbortError(attempt - 1, signal.reason);
  const controller = new AbortController();
  let timedOut = false;
  // raced with the transport: a custom fetch may not tie its body to the signal. The timer and the
  // caller's signal reject it directly, so no listener sits on the attempt's own signal.
  let stop!: (reason: unknown) => void;
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const abort = (reason?: unknown) => {
    controller.abort(reason);
    stop(controller.signal.reason);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    abort();
  }, timeoutMs);
  const onCallerAbort = signal && (() => abort(signal.reason));
  if (onCallerAbort) signal.addEventListener("abort", onCallerAbort);
  try {
    return await Promise.race([transport(request, controller.signal), stopped]);
  } catch (error) {
    if (signal?.aborted) throw new APIUserAbortError(attempt, signal.reason);
    const cause = unwrap(error);
    if (timedOut) throw new APITimeoutError(`Attempt ${attempt} timed out after ${timeoutMs} ms`, attempt, cause);
    throw new APIConnectionError(`Connection error: ${redact.text(causeMessage(cause))}`, attempt, cause);
  } finally {
    clearTimeout(timer);
    if (onCallerAbort) signal.removeEventListener("abort", onCallerAbort);
  }
}

/**
 * Waits `ms` before a retry, or stops at once when the caller's signal fires.
 * @throws {APIUserAbortError} when the signal fires first
 * @internal
 */
export function wait(ms: number, signal: AbortSignal | undefined, attempts: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const abort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError(attempts, signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    if (signal?.aborted) abort();
    else signal?.addEventListener("abort", abort, { once: true });
  });
}
