/**
 * The conformance harness: the suite speaks HTTP only (a Request in, a Response out), so the
 * same cases run through `api.fetch`, through MSW `setupServer`, and against a standalone
 * server. The mock behind the target is used only to seed data and to look at what was stored.
 */
import { expect } from "vitest";
import type { MockApi, MockApiOptions } from "../../mock/index.js";
import { PROBLEM_CONTENT_TYPE, ProblemDetails } from "../../src/schemas/index.js";
import { BASE_URL, KEYS, seedFixtures, T0 } from "./fixtures.js";

/** Something that answers HTTP requests from a mock. */
export interface ConformanceTarget {
  /** Sends one request (rejects like fetch on a network error). */
  send(request: Request): Promise<Response>;
  /** The mock behind the target: for seeding, clock-driven state and inspection only. */
  readonly api: MockApi;
  /** Where requests go, when not the mock's own base URL (a server's address). */
  readonly baseUrl?: string;
  /**
   * Whether the target answers paths outside `/v0` (with 404). MSW handlers intercept only `/v0`
   * and leave other requests to other handlers: false there.
   */
  readonly answersOutsideV0?: boolean;
  /**
   * Whether only the methods node:http knows (`http.METHODS`, upper case) reach the mock. MSW's
   * Node interceptor parses requests as node does, so a request with another token (`FOO`,
   * `patch`) is never handed to any handler: it goes to the network. True there.
   */
  readonly onlyNodeMethods?: boolean;
  /** Stops the target (closes a server, stops MSW). */
  close?(): Promise<void> | void;
}

/** Builds a target around a mock created with these options. */
export type MakeTarget = (options: MockApiOptions) => Promise<ConformanceTarget> | ConformanceTarget;

/** A response, read once: status, headers and body (parsed when it is JSON). */
export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  readonly text: string;
}

/** How to send one request. */
export interface CallOptions {
  /** The API key; `null` sends none. Default: tenant A's key. */
  readonly key?: string | null;
  /** A JSON body (serialized) ... */
  readonly json?: unknown;
  /** ... or a raw body sent as is (use bytes with `contentType: null`: a string body gets text/plain). */
  readonly raw?: BodyInit;
  /** The body's media type: default application/json; `null` sends no Content-Type. */
  readonly contentType?: string | null;
  /** Extra headers. */
  readonly headers?: Record<string, string>;
}

/** The shared state of one suite run: the target, the clock, and request helpers. */
export class Harness {
  nowMs = T0;
  target!: ConformanceTarget;

  /** @param baseUrl - the base URL the mock is created with (a host root, or one with a path) */
  constructor(readonly baseUrl: string = BASE_URL) {}

  /** The options every target is created with: two tenants, a seed, a clock the tests move. */
  options(): MockApiOptions {
    return {
      apiKeys: { [KEYS.a]: "tenant_a", [KEYS.a2]: "tenant_a", [KEYS.b]: "tenant_b" },
      seed: 42,
      now: () => this.nowMs,
      baseUrl: this.baseUrl,
      fixtures: seedFixtures,
    };
  }

  get api(): MockApi {
    return this.target.api;
  }

  /** Back to the fixtures at T0. */
  reset(): void {
    this.nowMs = T0;
    this.api.reset();
  }

  /** Moves the clock forward. */
  advance(ms: number): void {
    this.nowMs += ms;
  }

  /** Builds a request to `path` (below the base URL). */
  request(method: string, path: string, options: CallOptions = {}): Request {
    const headers = new Headers(options.headers);
    const key = options.key === undefined ? KEYS.a : options.key;
    if (key !== null) headers.set("x-api-key", key);
    const body = options.json === undefined ? options.raw : JSON.stringify(options.json);
    const contentType = options.contentType === undefined ? "application/json" : options.contentType;
    if (body !== undefined && contentType !== null) headers.set("content-type", contentType);
    return new Request(`${this.target.baseUrl ?? this.api.baseUrl}${path}`, { method, headers, ...(body !== undefined && { body }) });
  }

  /** Sends a request and reads the answer. */
  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    return read(await this.target.send(this.request(method, path, options)));
  }

  /** `POST /v0/prospect_logs` with a JSON body. */
  createLog(json: unknown, options: Omit<CallOptions, "json"> = {}): Promise<Answer> {
    return this.call("POST", "/v0/prospect_logs", { ...options, json });
  }

  /** `GET /v0/page_groups/{g}/pages/{p}`, IDs URL-encoded. */
  getPage(pageGroupId: string, pageId: string, options: CallOptions = {}): Promise<Answer> {
    return this.call("GET", `/v0/page_groups/${encodeURIComponent(pageGroupId)}/pages/${encodeURIComponent(pageId)}`, options);
  }

  /** `PATCH /v0/webhook_subscriptions/{id}` with a JSON body. */
  patchSubscription(id: string, json: unknown, options: Omit<CallOptions, "json"> = {}): Promise<Answer> {
    return this.call("PATCH", `/v0/webhook_subscriptions/${encodeURIComponent(id)}`, { ...options, json });
  }
}

/** Reads a response once. */
export async function read(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text };
}

/**
 * Asserts an RFC 9457 problem answer: status, code, media type, the shared schema, and
 * `requestId` equal to the `x-request-id` header.
 */
export function expectProblem(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: answer.body?.code }).toEqual({ status, code });
  expect(answer.headers.get("content-type")).toBe(PROBLEM_CONTENT_TYPE);
  expect(ProblemDetails.safeParse(answer.body).success).toBe(true);
  expect(answer.body.status).toBe(status);
  expect(answer.body.requestId).toBe(answer.headers.get("x-request-id"));
  expect(answer.body.type).toBe(`urn:prospectkit:problem:${code}`);
}

/** Asserts a 400 whose field errors are exactly these `[pointer, code]` pairs (in any order). */
export function expectFieldErrors(answer: Answer, expected: readonly (readonly [string, string])[]): void {
  expectProblem(answer, 400, "invalid_request");
  const actual = (answer.body.errors as { pointer: string; code: string }[]).map((e) => [e.pointer, e.code]);
  expect(actual).toEqual(expect.arrayContaining(expected.map((pair) => [...pair])));
  expect(actual).toHaveLength(expected.length);
}
