/**
 * Fault injection: make the next N calls (of one operation, or of any) answer an error status,
 * wait, drop the connection, or send a malformed body, to test a client's error paths.
 * @module
 */
import * as z from "zod/mini";
import { OPERATIONS, type OperationId } from "../../src/operations.js";
import { ERROR_CODES } from "../../src/schemas/index.js";
import { EXTRA_STATUS_TITLES, PROBLEM_STATUSES } from "../../src/schemas/problem.js";
import { problem, type Reply } from "./reply.js";

/** Which calls a fault applies to: one operation, or `"all"` (every request the mock receives). */
export type FaultTarget = OperationId | "all";

/** One injected fault, as JSON (`api.faults.pending()`, `GET /__mock/faults`). */
export const FaultSchema = z.union([
  /** Answer this status with a problem body, without processing the request. */
  z.object({ kind: z.literal("status"), status: z.int(), retryAfterSeconds: z.nullable(z.int()) }),
  /** Wait this long before answering (combines with one other fault). */
  z.object({ kind: z.literal("latency"), ms: z.number() }),
  /** Fail like a dropped connection; with `afterProcessing` the request is processed first (its response is lost). */
  z.object({ kind: z.literal("network-error"), afterProcessing: z.boolean() }),
  /** Process the request, then send a body that is not valid JSON. */
  z.object({ kind: z.literal("malformed-body") }),
]);

/** One injected fault: a status, a latency, a dropped connection or a malformed body (its fields are documented in `FaultSchema`, mock/faults.ts). */
export type Fault = z.output<typeof FaultSchema>;

/** Which calls and how many. */
export interface FaultOptions {
  /** Default `"all"`. */
  readonly operation?: FaultTarget;
  /** How many calls (default 1); `Infinity` until `clear()`. */
  readonly times?: number;
}

/** `api.faults`: arm faults for the next calls. Faults are consumed in the order they were armed. */
export interface MockFaults {
  /**
   * The next calls answer `status` (400–599) with a problem body; a 429 carries `Retry-After`.
   * @param options - plus `retryAfter` in seconds (default 1 for 429, none otherwise)
   */
  status(status: number, options?: FaultOptions & { readonly retryAfter?: number }): void;
  /** The next calls are answered `ms` milliseconds late (the request is in flight meanwhile). */
  latency(ms: number, options?: FaultOptions): void;
  /** The next calls fail with a network error (`api.fetch` rejects with a TypeError). */
  networkError(options?: FaultOptions & { readonly afterProcessing?: boolean }): void;
  /** The next calls are processed, then answered with a body that is not valid JSON. */
  malformedBody(options?: FaultOptions): void;
  /** Disarms every fault. */
  clear(): void;
  /** The faults still armed, with how many calls each has left. */
  pending(): { fault: Fault; operation: FaultTarget; remaining: number }[];
}

/** The faults that apply to one call: at most one latency and one other. */
export interface TakenFaults {
  readonly latencyMs: number;
  readonly fault: Exclude<Fault, { kind: "latency" }> | null;
}

/** What a call takes when nothing is armed (the common case: no search, no allocation). */
const NO_FAULTS: TakenFaults = Object.freeze({ latencyMs: 0, fault: null });

interface Armed {
  readonly fault: Fault;
  readonly operation: FaultTarget;
  remaining: number;
}

function checkOptions(options: FaultOptions): { operation: FaultTarget; times: number } {
  const { operation = "all", times = 1 } = options;
  if (operation !== "all" && !OPERATIONS.includes(operation)) {
    throw new TypeError(`faults: operation must be "all" or one of ${OPERATIONS.join(", ")}`);
  }
  if (!(times === Infinity || (Number.isInteger(times) && times > 0))) {
    throw new TypeError("faults: times must be a positive integer or Infinity");
  }
  return { operation, times };
}

/** The fault registry of one mock: `api` for tests, `take` for the pipeline. */
export function createFaults(): { api: MockFaults; take(operation: OperationId | null): TakenFaults } {
  let armed: Armed[] = [];
  const arm = (fault: Fault, options: FaultOptions) => {
    const { operation, times } = checkOptions(options);
    armed.push({ fault, operation, remaining: times });
  };
  const consume = (operation: OperationId | null, latency: boolean): Fault | null => {
    const entry = armed.find((a) => (a.fault.kind === "latency") === latency && (a.operation === "all" || a.operation === operation));
    if (entry === undefined) return null;
    entry.remaining -= 1;
    if (entry.remaining <= 0) armed = armed.filter((a) => a !== entry);
    return entry.fault;
  };
  return {
    api: {
      status(status, options = {}) {
        if (!Number.isInteger(status) || status < 400 || status > 599) throw new TypeError("faults: status must be an integer from 400 to 599");
        const { retryAfter = status === 429 ? 1 : undefined } = options;
        if (retryAfter !== undefined && !(Number.isInteger(retryAfter) && retryAfter >= 0)) {
          throw new TypeError("faults: retryAfter must be a whole number of seconds");
        }
        arm({ kind: "status", status, retryAfterSeconds: retryAfter ?? null }, options);
      },
      latency(ms, options = {}) {
        if (!(Number.isFinite(ms) && ms >= 0)) throw new TypeError("faults: latency must be a finite number of milliseconds >= 0");
        arm({ kind: "latency", ms }, options);
      },
      networkError(options = {}) {
        arm({ kind: "network-error", afterProcessing: options.afterProcessing ?? false }, options);
      },
      malformedBody(options = {}) {
        arm({ kind: "malformed-body" }, options);
      },
      clear() {
        armed = [];
      },
      pending: () => armed.map(({ fault, operation, remaining }) => ({ fault, operation, remaining })),
    },
    take(operation) {
      if (armed.length === 0) return NO_FAULTS;
      const latency = consume(operation, true);
      const fault = consume(operation, false);
      return {
        latencyMs: latency?.kind === "latency" ? latency.ms : 0,
        fault: fault?.kind === "latency" ? null : fault,
      };
    },
  };
}

/**
 * The problem reply of an injected status fault.
 * @param requestId - the request's ID
 * @param status - the status armed (400 to 599)
 * @param retryAfterSeconds - the `Retry-After` to send, if any
 */
export function faultReply(requestId: string, status: number, retryAfterSeconds: number | null): Reply {
  const code =
    status === 429
      ? "rate_limited"
      : status >= 500
        ? "internal_error"
        : (ERROR_CODES.find((c) => PROBLEM_STATUSES[c].status === status) ?? "invalid_request");
  return problem(requestId, code, `The mock answers ${status} because a fault was injected for this call.`, {
    status,
    ...(EXTRA_STATUS_TITLES[status] !== undefined && { title: EXTRA_STATUS_TITLES[status] }),
    ...(retryAfterSeconds !== null && { headers: { "retry-after": String(retryAfterSeconds) } }),
  });
}

/**
 * A malformed-body fault's reply: the body cut in half, what a client sees when a proxy mangles a response.
 * @param reply - the reply the request would have had
 */
export function malformed(reply: Reply): Reply {
  const text = reply.text ?? JSON.stringify(reply.body);
  return { ...reply, text: text.slice(0, Math.max(1, text.length >> 1)) };
}
