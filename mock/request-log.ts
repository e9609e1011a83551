/**
 * The request log: every request the mock answered (or dropped), for assertions. The API key
 * is never recorded (no headers are), nor the query string (where a key must never be sent).
 * @module
 */
import type { OperationId } from "./http/router.js";

/** One answered request. */
export interface LoggedRequest {
  readonly requestId: string;
  readonly method: string;
  /** The URL path, without the query string. */
  readonly path: string;
  /** The operation the route matched, or null (404, 405, outside the API). */
  readonly operation: OperationId | null;
  /** The HTTP status answered; 0 when the connection was dropped (a network-error fault). */
  readonly status: number;
  /** The parsed JSON request body, or undefined when there was none or it was not JSON. */
  readonly requestBody: unknown;
  /** The JSON response body (a malformed-body fault: the text sent), or undefined when dropped. */
  readonly responseBody: unknown;
  /** When the request was received (the mock's clock). */
  readonly receivedAt: string;
}

/** `api.requests`: the requests answered since creation or the last reset, oldest first. */
export interface RequestLog {
  /** Every logged request, oldest first. */
  list(): LoggedRequest[];
  /** The latest logged request, or undefined. */
  last(): LoggedRequest | undefined;
  /** How many requests are logged. */
  readonly size: number;
  /** Forgets every logged request. */
  clear(): void;
}

/** Creates an empty request log: `api` for tests, `record` for the pipeline. */
export function createRequestLog(): { api: RequestLog; record(entry: LoggedRequest): void } {
  let entries: LoggedRequest[] = [];
  return {
    api: {
      list: () => [...entries],
      last: () => entries.at(-1),
      get size() {
        return entries.length;
      },
      clear() {
        entries = [];
      },
    },
    record(entry) {
      entries.push(entry);
    },
  };
}
