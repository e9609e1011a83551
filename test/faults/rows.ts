/**
 * The fault matrix as data: one row per fault, each with how it is injected and the exact outcome
 * the SDK must reach (result or error class, the attempts the server saw, the waits between them,
 * and how many prospect logs exist afterwards).
 *
 * Faults the mock injects itself are armed through its control API (`POST /__mock/faults`); what
 * only a proxy or a newer API does (an HTTP-date `Retry-After`, a wrong content type, an empty
 * body, a field added or missing) is a gateway rewrite of the mock's real answer.
 */
import {
  APIConnectionError,
  APITimeoutError,
  InternalServerError,
  RateLimitError,
  type RequestOptions,
  ResponseValidationError,
} from "../../src/index.js";
import { type Answer, editJson } from "./support/gateway.js";
import { type Rig, SEEDED } from "./support/rig.js";

/** The operations a row can call. */
export type OperationName = "createProspectLog" | "getPage" | "updateWebhookSubscription";

/** An inclusive range of milliseconds. */
export type Range = readonly [min: number, max: number];

/** The SDK's backoff (issue 3): 0.5 s doubling, less up to 25 % jitter. */
const BACKOFF = { first: [375, 500], second: [750, 1000] } as const satisfies Record<string, Range>;

/** The error classes a row may end in. */
type ErrorClass =
  | typeof APIConnectionError
  | typeof APITimeoutError
  | typeof InternalServerError
  | typeof RateLimitError
  | typeof ResponseValidationError;

/** What a row must end in. */
export type Outcome =
  /** A result: the final HTTP status, whether it was a replay, and fields the data must have. */
  | { readonly result: { readonly status: number; readonly replayed: boolean; readonly data?: Record<string, unknown> } }
  /** An error of exactly this class (the class itself, not a subclass), with these fields. */
  | { readonly error: ErrorClass; readonly fields?: Record<string, unknown> };

/** One fault and its exact outcome. */
export interface FaultRow {
  readonly name: string;
  readonly operation: OperationName;
  /** Per-call options (a short `timeoutMs` for the timeout rows). */
  readonly options?: RequestOptions;
  /** Injects the fault before the call. */
  readonly arm: (rig: Rig) => Promise<void> | void;
  readonly outcome: Outcome;
  /** The status of each attempt as the server logged it (0: connection dropped), in arrival order. */
  readonly statuses: readonly number[];
  /** The wait the SDK announced before each retry (`onRetry`'s `delayMs`). */
  readonly waits: readonly Range[];
  /** How many prospect logs the server stores afterwards (never more than one). */
  readonly logs: 0 | 1;
}

const html = "<!doctype html><title>502 Bad Gateway</title><h1>Bad Gateway</h1>";
const asHtml =
  (status: number) =>
  (answer: Answer): Answer => ({ status, headers: { ...answer.headers, "content-type": "text/html" }, body: html });
const created = { status: 201, replayed: false } as const;
// A replay answers the original status and body, marked `idempotent-replayed: true` (BEHAVIOUR).
const replayed = { status: 201, replayed: true } as const;

/** Every row of the matrix. */
export const FAULT_ROWS: readonly FaultRow[] = [
  // Connection drops: the mock's network-error fault destroys the socket.
  {
    name: "connection dropped before the server processed the create, once: retried, created once",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "network-error", times: 1 }),
    outcome: { result: created },
    statuses: [0, 201],
    waits: [BACKOFF.first],
    logs: 1,
  },
  {
    name: "connection dropped after the server stored the log (answer lost), once: the retry is a replay",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "network-error", afterProcessing: true, times: 1 }),
    outcome: { result: replayed },
    statuses: [0, 201],
    waits: [BACKOFF.first],
    logs: 1,
  },
  {
    name: "connection dropped after processing, on every attempt: APIConnectionError after 3 attempts, one log",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "network-error", afterProcessing: true, times: 3 }),
    outcome: { error: APIConnectionError, fields: { attempts: 3 } },
    statuses: [0, 0, 0],
    waits: [BACKOFF.first, BACKOFF.second],
    logs: 1,
  },
  {
    name: "connection dropped on getPage, on every attempt: APIConnectionError after 3 attempts",
    operation: "getPage",
    arm: (rig) => rig.fault({ kind: "network-error", operation: "getPage", times: 3 }),
    outcome: { error: APIConnectionError, fields: { attempts: 3 } },
    statuses: [0, 0, 0],
    waits: [BACKOFF.first, BACKOFF.second],
    logs: 0,
  },
  // Timeouts: the server answers 300 ms late, the SDK gives each attempt 100 ms.
  {
    name: "timeout (latency 300 ms > timeoutMs 100), once: the late first attempt stored the log, the retry replays it",
    operation: "createProspectLog",
    options: { timeoutMs: 100 },
    arm: (rig) => rig.fault({ kind: "latency", ms: 300, times: 1 }),
    outcome: { result: replayed },
    statuses: [201, 201],
    waits: [BACKOFF.first],
    logs: 1,
  },
  {
    name: "timeout on every attempt: APITimeoutError after 3 attempts, one log",
    operation: "createProspectLog",
    options: { timeoutMs: 100 },
    arm: (rig) => rig.fault({ kind: "latency", ms: 300, times: 3 }),
    outcome: { error: APITimeoutError, fields: { attempts: 3 } },
    statuses: [201, 201, 201],
    waits: [BACKOFF.first, BACKOFF.second],
    logs: 1,
  },
  // 429: Retry-After decides the wait.
  {
    name: "429 with Retry-After: 1 (seconds), once: waits exactly 1 s, then created",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "status", status: 429, retryAfter: 1, times: 1 }),
    outcome: { result: created },
    statuses: [429, 201],
    waits: [[1000, 1000]],
    logs: 1,
  },
  {
    name: "429 with Retry-After as an HTTP date about 2 s ahead, once: waits until that date, then created",
    operation: "createProspectLog",
    async arm(rig) {
      await rig.fault({ kind: "status", status: 429, retryAfter: 2, times: 1 });
      rig.gateway.rewrite((answer) => ({
        ...answer,
        headers: { ...answer.headers, "retry-after": new Date(Date.now() + Number(answer.headers["retry-after"]) * 1000).toUTCString() },
      }));
    },
    outcome: { result: created },
    statuses: [429, 201],
    // An HTTP date has whole seconds: 2 s ahead, truncated, is more than 1 s and at most 2 s away
    // from the gateway's clock (less the time the answer takes to reach the SDK). Backoff would be at most 500 ms.
    waits: [[600, 2000]],
    logs: 1,
  },
  {
    name: "429 asking for 61 s (over the 60 s cap): RateLimitError at once, with retryAfterMs",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "status", status: 429, retryAfter: 61, times: 1 }),
    outcome: { error: RateLimitError, fields: { status: 429, code: "rate_limited", retryAfterMs: 61_000, attempts: 1 } },
    statuses: [429],
    waits: [],
    logs: 0,
  },
  {
    name: "429 with Retry-After: 0 on every attempt: RateLimitError after 3 attempts without waiting",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "status", status: 429, retryAfter: 0, times: 3 }),
    outcome: { error: RateLimitError, fields: { status: 429, retryAfterMs: 0, attempts: 3 } },
    statuses: [429, 429, 429],
    waits: [
      [0, 0],
      [0, 0],
    ],
    logs: 0,
  },
  // 5xx: retried with backoff.
  {
    name: "500 on every attempt: InternalServerError after 3 attempts, nothing stored",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "status", status: 500, times: 3 }),
    outcome: { error: InternalServerError, fields: { status: 500, code: "internal_error", attempts: 3 } },
    statuses: [500, 500, 500],
    waits: [BACKOFF.first, BACKOFF.second],
    logs: 0,
  },
  {
    name: "500 once on getPage: the retry returns the page",
    operation: "getPage",
    arm: (rig) => rig.fault({ kind: "status", status: 500, times: 1 }),
    outcome: { result: { status: 200, replayed: false, data: { pageId: SEEDED.pageId, effectiveName: "Pricing" } } },
    statuses: [500, 200],
    waits: [BACKOFF.first],
    logs: 0,
  },
  {
    name: "502 twice, then created on the third attempt",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "status", status: 502, times: 2 }),
    outcome: { result: created },
    statuses: [502, 502, 201],
    waits: [BACKOFF.first, BACKOFF.second],
    logs: 1,
  },
  {
    name: "503 once on updateWebhookSubscription: the retry applies the update",
    operation: "updateWebhookSubscription",
    arm: (rig) => rig.fault({ kind: "status", status: 503, times: 1 }),
    outcome: { result: { status: 200, replayed: false, data: { id: SEEDED.subscriptionId, active: false } } },
    statuses: [503, 200],
    waits: [BACKOFF.first],
    logs: 0,
  },
  {
    name: "503 once on the create: retried, created once",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "status", status: 503, times: 1 }),
    outcome: { result: created },
    statuses: [503, 201],
    waits: [BACKOFF.first],
    logs: 1,
  },
  // Bodies: a 2xx whose body is broken is a ResponseValidationError, never retried.
  {
    name: "malformed JSON (the mock cuts its body in half): ResponseValidationError invalid_json, not retried",
    operation: "createProspectLog",
    arm: (rig) => rig.fault({ kind: "malformed-body", times: 1 }),
    outcome: {
      error: ResponseValidationError,
      fields: { status: 201, issues: [{ pointer: "", code: "invalid_json", detail: "the body is not valid JSON" }] },
    },
    statuses: [201],
    waits: [],
    logs: 1,
  },
  {
    name: "wrong content type (the JSON labelled text/plain): the SDK reads the body, the result stands",
    operation: "createProspectLog",
    arm: (rig) => rig.gateway.rewrite((answer) => ({ ...answer, headers: { ...answer.headers, "content-type": "text/plain" } })),
    outcome: { result: created },
    statuses: [201],
    waits: [],
    logs: 1,
  },
  {
    name: "wrong content type (an HTML page, text/html, with status 201): ResponseValidationError invalid_json",
    operation: "createProspectLog",
    arm: (rig) => rig.gateway.rewrite(asHtml(201)),
    outcome: { error: ResponseValidationError, fields: { status: 201, body: html } },
    statuses: [201],
    waits: [],
    logs: 1,
  },
  {
    name: "an HTML 502 page from a gateway after the server stored the log, once: retried, the retry replays",
    operation: "createProspectLog",
    arm: (rig) => rig.gateway.rewrite(asHtml(502)),
    outcome: { result: replayed },
    statuses: [201, 201],
    waits: [BACKOFF.first],
    logs: 1,
  },
  {
    name: "empty body with status 201: ResponseValidationError invalid_json, not retried",
    operation: "createProspectLog",
    arm: (rig) => rig.gateway.rewrite((answer) => ({ ...answer, body: "" })),
    outcome: { error: ResponseValidationError, fields: { status: 201, body: "" } },
    statuses: [201],
    waits: [],
    logs: 1,
  },
  {
    name: "empty 503 on every attempt (the server stored the log each time): InternalServerError with no body, one log",
    operation: "createProspectLog",
    arm: (rig) => rig.gateway.rewrite((answer) => ({ ...answer, status: 503, body: "" }), { times: 3 }),
    outcome: { error: InternalServerError, fields: { status: 503, body: undefined, problem: undefined, attempts: 3 } },
    statuses: [201, 201, 201],
    waits: [BACKOFF.first, BACKOFF.second],
    logs: 1,
  },
  // Drift: a newer API adds, an older or broken one removes.
  {
    name: "a response with an unknown field: accepted, the field kept in the data",
    operation: "createProspectLog",
    arm: (rig) => rig.gateway.rewrite(editJson((body) => ({ ...body, riskScore: 0.25 }))),
    outcome: { result: { ...created, data: { riskScore: 0.25 } } },
    statuses: [201],
    waits: [],
    logs: 1,
  },
  {
    name: "a response with an unknown event kind: accepted, the kind kept in events",
    operation: "updateWebhookSubscription",
    arm: (rig) => rig.gateway.rewrite(editJson((body) => ({ ...body, events: [...(body.events as string[]), "prospect.merged"] }))),
    outcome: { result: { status: 200, replayed: false, data: { events: ["form.submitted", "prospect.merged"] } } },
    statuses: [200],
    waits: [],
    logs: 0,
  },
  {
    name: "a response missing a required field (prospectLogId): ResponseValidationError naming it, not retried",
    operation: "createProspectLog",
    arm: (rig) => rig.gateway.rewrite(editJson(({ prospectLogId: _dropped, ...body }) => body)),
    outcome: {
      error: ResponseValidationError,
      fields: { status: 201, issues: [{ pointer: "/prospectLogId", code: "required", detail: "prospectLogId is required" }] },
    },
    statuses: [201],
    waits: [],
    logs: 1,
  },
];
