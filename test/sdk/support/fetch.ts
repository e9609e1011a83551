import type { Fetch } from "../../../src/index.js";

/** What the injected fetch answers: a response, an error to reject with, or a function of the request. */
export type Answer = Response | Error | ((request: Request) => Response | Promise<Response>);

/** An injected `fetch` (openapi-fetch style): records every request and answers from a list. */
export interface FakeFetch {
  fetch: Fetch;
  /** Every request, in order, as a `Request` (read bodies with `await calls[i].clone().text()`). */
  calls: Request[];
}

/**
 * A fetch that answers the n-th call with the n-th answer (the last answer repeats). It honours
 * `signal` like the real one: an abort rejects with the signal's reason, also while an answer
 * is still pending, so timeouts and caller aborts can be tested without sockets (and with fake timers).
 */
export function fakeFetch(...answers: Answer[]): FakeFetch {
  const calls: Request[] = [];
  const fetch: Fetch = (url, init) => {
    const request = new Request(url, init);
    calls.push(request);
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      const abort = () => reject(signal?.reason ?? new DOMException("This operation was aborted", "AbortError"));
      if (signal?.aborted) return abort();
      signal?.addEventListener("abort", abort, { once: true });
      Promise.resolve()
        .then(() => {
          if (answer === undefined) throw new TypeError("fakeFetch: no answer scripted");
          if (answer instanceof Error) throw answer;
          return typeof answer === "function" ? answer(request) : answer.clone();
        })
        .then(resolve, reject);
    });
  };
  return { fetch, calls };
}

/** A JSON response with an `x-request-id`, status 200 unless `init` says otherwise. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { "content-type": "application/json", "x-request-id": "req_fake", ...(init.headers as Record<string, string>) },
  });
}

/** An answer that never arrives: only an abort (timeout or caller) ends it. */
export const never = (): Promise<Response> => new Promise<Response>(() => {});

/** What undici throws when a connection fails: a TypeError whose cause says why. */
export function connectionRefused(): TypeError {
  return new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }) });
}
