/**
 * Fault injection: make the next N calls (of one operation, or of any; of every tenant, or of one;
 * or only those that match a path parameter or body field) answer an error status, wait, drop the
 * connection, or send a malformed body, to test a client's error paths.
 * @module
 */
import * as z from "zod/mini";
import { OPERATIONS, type OperationId } from "../../src/operation-table.js";
import { toFieldErrors } from "../../src/schemas/index.js";
import { bodyMatches, type CompiledMatch, compileMatch, type FaultMatch, FaultMatchSchema, paramsMatch } from "./match.js";
import { type FaultNearMiss, MISSES_KEPT, missesOf } from "./near-misses.js";

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

/** Which calls a fault applies to: `all`, or one operation of the API. */
export const FaultOperation = z.enum(["all", ...OPERATIONS]);

const scope = {
  operation: z.optional(FaultOperation),
  /** How many calls: a positive integer, or `null` for every call until the faults are cleared. */
  times: z.optional(z.nullable(z.int().check(z.gte(1)))),
  match: z.optional(FaultMatchSchema),
};

/**
 * What arms one fault, the one check of every way in: `api.faults` (its arguments, a `TypeError`
 * naming the first that fails) and `POST /__mock/faults` (the body, a 400 listing every field).
 */
export const FaultArmingSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("status"),
    status: z.int().check(z.gte(400), z.lte(599)),
    retryAfter: z.optional(z.int().check(z.gte(0))),
    ...scope,
  }),
  z.strictObject({ kind: z.literal("latency"), ms: z.number().check(z.gte(0), z.lte(600_000)), ...scope }),
  z.strictObject({ kind: z.literal("network-error"), afterProcessing: z.optional(z.boolean()), ...scope }),
  z.strictObject({ kind: z.literal("malformed-body"), ...scope }),
]);
/** What arms one fault (what {@link FaultArmingSchema} accepts). */
export type FaultArming = z.output<typeof FaultArmingSchema>;

/** Which calls and how many. */
export interface FaultOptions {
  /** Default `"all"`. */
  readonly operation?: FaultTarget;
  /** How many calls (default 1); `Infinity` until `clear()`. */
  readonly times?: number;
  /**
   * Only the requests of `operation` whose path parameters and top-level body fields equal these
   * (`{ pageId: "page_1" }`, `{ source: "crm" }`); only those trigger or consume the fault.
   */
  readonly match?: FaultMatch;
}

/** One armed fault, as `pending()` lists it. */
export interface PendingFault {
  readonly fault: Fault;
  readonly operation: FaultTarget;
  /** How many calls it has left (`Infinity` until cleared). */
  readonly remaining: number;
  /** The match it carries (absent: every call of its operation). */
  readonly match?: FaultMatch;
  /** The tenant whose requests it applies to (absent: every request the mock receives). */
  readonly tenantId?: string;
  /**
   * A fault with a match only: the latest requests to its operation (at most 5) that differed in
   * a matched field, each with the field, the value seen and the value wanted. Absent: none yet.
   */
  readonly nearMisses?: readonly FaultNearMiss[];
}

/**
 * `api.faults` (every request) and a tenant's `faults` (that tenant's requests only): arm faults
 * for the next calls. Faults are consumed in the order they were armed; one with a match on body
 * fields is looked at once the body is read, after those without.
 */
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
  /** Disarms every fault it armed (`api.faults`: every fault of the mock). */
  clear(): void;
  /** The faults still armed (`api.faults`: all of them; a tenant's: its own), with how many calls each has left. */
  pending(): PendingFault[];
}

/** The faults that apply to one call: at most one latency and one other. */
export interface TakenFaults {
  readonly latencyMs: number;
  readonly fault: Exclude<Fault, { kind: "latency" }> | null;
}

/** What a fault is matched against: the request's operation, its caller's tenant and its path parameters. */
export interface FaultRequest {
  readonly operation: OperationId | null;
  readonly tenantId: string | null;
  readonly params: Readonly<Record<string, string>>;
  /** The request's own `x-api-key`: a near miss never shows a value holding it. */
  readonly secret?: string | null;
}

/** The fault registry of one mock: `api` for tests, `forTenant` for a tenant's, `take` and `takeByBody` for the pipeline. */
export interface FaultRegistry {
  readonly api: MockFaults;
  /** The faults of one tenant: armed for its requests only; `clear` and `pending` keep to its own. */
  forTenant(tenantId: string): MockFaults;
  /** Disarms the faults armed for one tenant. */
  clearTenant(tenantId: string): void;
  /** The faults a request takes before its body is read (none armed: at once, nothing allocated). */
  take(request: FaultRequest): TakenFaults;
  /** Then those whose match reads the body, for what `taken` left empty (only those newly taken). */
  takeByBody(request: FaultRequest, body: unknown, taken: TakenFaults): TakenFaults;
}

/** What a call takes when nothing is armed (the common case: no search, no allocation). */
export const NO_FAULTS: TakenFaults = Object.freeze({ latencyMs: 0, fault: null });

interface Armed {
  readonly fault: Fault;
  readonly operation: FaultTarget;
  readonly match: FaultMatch | null;
  readonly compiled: CompiledMatch;
  readonly tenantId: string | null;
  remaining: number;
  /** The latest requests that missed its match by a field (`nearMisses` of `pending()`). */
  misses: FaultNearMiss[];
}

/** A fault armed: the arming checked by the one schema, then its match by its operation's fields. */
function check(arming: FaultArming | Record<string, unknown>): {
  fault: Fault;
  operation: FaultTarget;
  times: number;
  match: FaultMatch | null;
  compiled: CompiledMatch;
} {
  const parsed = FaultArmingSchema.safeParse(arming);
  if (!parsed.success)
    throw new TypeError(
      `faults: ${toFieldErrors(parsed.error.issues, arming)
        .map((error) => `${error.pointer.slice(1)}: ${error.detail}`)
        .join("; ")}`,
    );
  const { operation = "all", times, match, ...spec } = parsed.data;
  const compiled = compileMatch(operation, match ?? {});
  if (Array.isArray(compiled)) throw new TypeError(`faults: ${compiled.map((p) => p.detail).join("; ")}`);
  const fault: Fault =
    spec.kind === "status"
      ? { kind: "status", status: spec.status, retryAfterSeconds: spec.retryAfter ?? (spec.status === 429 ? 1 : null) }
      : spec.kind === "network-error"
        ? { kind: "network-error", afterProcessing: spec.afterProcessing ?? false }
        : spec;
  return { fault, operation, times: times === undefined ? 1 : (times ?? Infinity), match: match === undefined ? null : { ...match }, compiled };
}

/** A `MockFaults` over one registry: its arguments as an arming, checked once (`check`). */
function armingApi(arm: (arming: Record<string, unknown>) => void, clear: () => void, pending: () => PendingFault[]): MockFaults {
  const scoped = ({ operation, times, match }: FaultOptions) => ({ operation, times: times === Infinity ? null : times, match });
  return {
    status: (status, options = {}) => arm({ kind: "status", status, retryAfter: options.retryAfter, ...scoped(options) }),
    latency: (ms, options = {}) => arm({ kind: "latency", ms, ...scoped(options) }),
    networkError: (options = {}) => arm({ kind: "network-error", afterProcessing: options.afterProcessing, ...scoped(options) }),
    malformedBody: (options = {}) => arm({ kind: "malformed-body", ...scoped(options) }),
    clear,
    pending,
  };
}

const listed = ({ fault, operation, match, remaining, tenantId, misses }: Armed): PendingFault => ({
  fault,
  operation,
  remaining,
  ...(match !== null && { match }),
  ...(tenantId !== null && { tenantId }),
  ...(misses.length > 0 && { nearMisses: [...misses] }),
});

/** Creates the fault registry of one mock. */
export function createFaults(): FaultRegistry {
  let armed: Armed[] = [];
  /** How many armed faults read the body: none, and `takeByBody` costs nothing. */
  let byBody = 0;
  /** How many armed faults carry a match: none, and no request's near misses are looked for. */
  let matched = 0;
  const remove = (keep: (entry: Armed) => boolean) => {
    armed = armed.filter(keep);
    byBody = armed.filter((entry) => entry.compiled.body.length > 0).length;
    matched = armed.filter((entry) => entry.match !== null).length;
  };
  const armFor = (tenantId: string | null) => (arming: Record<string, unknown>) => {
    const { fault, operation, times, match, compiled } = check(arming);
    armed.push({ fault, operation, match, compiled, tenantId, remaining: times, misses: [] });
    if (compiled.body.length > 0) byBody += 1;
    if (match !== null) matched += 1;
  };
  const applies = (entry: Armed, request: FaultRequest, latency: boolean) =>
    (entry.fault.kind === "latency") === latency &&
    (entry.tenantId === null || entry.tenantId === request.tenantId) &&
    (entry.operation === "all" || entry.operation === request.operation) &&
    paramsMatch(entry.compiled, request.params);
  /**
   * Notes the near misses of a request: for each fault with a match on its operation and tenant,
   * the matched fields it differed in: its path parameters before the body is read, its body
   * fields after (when the parameters fitted).
   */
  const note = (request: FaultRequest, body: { value: unknown } | null) => {
    for (const entry of armed) {
      if (entry.match === null || entry.operation !== request.operation) continue;
      if (entry.tenantId !== null && entry.tenantId !== request.tenantId) continue;
      const misses = missesOf(entry.compiled, request, body);
      if (misses.length === 0) continue;
      entry.misses.push(...misses);
      if (entry.misses.length > MISSES_KEPT) entry.misses.splice(0, entry.misses.length - MISSES_KEPT);
    }
  };
  const consume = (request: FaultRequest, latency: boolean, body: { value: unknown } | null): Fault | null => {
    const entry = armed.find(
      (a) =>
        applies(a, request, latency) &&
        (body === null ? a.compiled.body.length === 0 : a.compiled.body.length > 0 && bodyMatches(a.compiled, body.value)),
    );
    if (entry === undefined) return null;
    entry.remaining -= 1;
    if (entry.remaining <= 0) remove((a) => a !== entry);
    return entry.fault;
  };
  /** The faults newly taken for the slots `taken` left empty. */
  const takeInto = (request: FaultRequest, body: { value: unknown } | null, taken: TakenFaults): TakenFaults => {
    if (matched > 0) note(request, body);
    const latency = taken.latencyMs === 0 ? consume(request, true, body) : null;
    const fault = taken.fault === null ? consume(request, false, body) : null;
    if (latency === null && fault === null) return NO_FAULTS;
    return { latencyMs: latency?.kind === "latency" ? latency.ms : 0, fault: fault !== null && fault.kind !== "latency" ? fault : null };
  };
  return {
    api: armingApi(
      armFor(null),
      () => remove(() => false),
      () => armed.map(listed),
    ),
    forTenant: (tenantId) =>
      armingApi(
        armFor(tenantId),
        () => remove((entry) => entry.tenantId !== tenantId),
        () => armed.filter((entry) => entry.tenantId === tenantId).map(listed),
      ),
    clearTenant: (tenantId) => remove((entry) => entry.tenantId !== tenantId),
    take: (request) => (armed.length === 0 ? NO_FAULTS : takeInto(request, null, NO_FAULTS)),
    takeByBody: (request, body, taken) => (byBody === 0 ? NO_FAULTS : takeInto(request, { value: body }, taken)),
  };
}
