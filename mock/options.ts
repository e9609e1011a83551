/**
 * `createMockApi` options and their checks: a mistake in them is a `TypeError` at creation,
 * never a surprise in the middle of a test.
 * @module
 */
import * as z from "zod/mini";
import { HttpUrl } from "../src/schemas/index.js";
import { type Clock, readClock } from "./lib/clock.js";
import type { Seed } from "./lib/random.js";
import { checkRetainedRequests, DEFAULT_RETAINED_REQUESTS } from "./observe/request-log.js";
import type { MockOperation } from "./operations/context.js";
import type { MockState } from "./state/index.js";
import type { WebhookOptions } from "./webhooks/index.js";
/** The API key a mock accepts when `apiKeys` is not given. */
export const DEFAULT_API_KEY = "mock_api_key";

/** The base URL a mock serves when `baseUrl` is not given (`.test` is reserved, so it never hits a real host). */
export const DEFAULT_BASE_URL = "https://api.prospectkit.test";

/** The seed a mock uses when `seed` is not given: mocks are reproducible by default. */
export const DEFAULT_SEED = 0;

/**
 * How many isolated tenants (`api.isolate()`, `POST /__mock/tenants`) a mock holds at once when
 * `maxTenants` is not given: room for a large parallel CI fleet, bounded memory (a few KiB each,
 * plus what each one stores).
 */
export const DEFAULT_MAX_TENANTS = 10_000;

/** How to create a mock. Every option is optional. */
export interface MockApiOptions {
  /**
   * Who may call: a list of keys (all of one tenant, created with a generated ID) or a map from
   * key to tenant ID (one tenant per distinct ID). Default: `[DEFAULT_API_KEY]`.
   */
  readonly apiKeys?: readonly string[] | Readonly<Record<string, string>>;
  /** Makes every generated ID and secret reproducible. Default {@link DEFAULT_SEED}. */
  readonly seed?: Seed;
  /** The clock behind every timestamp and the idempotency window. Default: the real time. */
  readonly now?: Clock;
  /**
   * The host root the API lives under (no `/v0`), as given to the SDK. MSW handlers intercept only
   * this origin; `api.fetch` routes by path below it. Default {@link DEFAULT_BASE_URL}.
   */
  readonly baseUrl?: string;
  /** Seeds data: runs at creation and after every `reset()`, so each test starts from the same state. */
  readonly fixtures?: (state: MockState) => void;
  /**
   * Webhook delivery: how attempts are sent (default `globalThis.fetch`), their timeout, how many
   * may be in flight at once, how fast the retry schedule runs, how many records are kept, the
   * clock that times attempts, a hook after each attempt and a signal that stops delivery.
   */
  readonly webhooks?: WebhookOptions;
  /** How many answered requests the log keeps per tenant, the latest (default 10,000): a busy tenant never pushes out another's. */
  readonly retainedRequests?: number;
  /**
   * How many isolated tenants (`api.isolate()`, `POST /__mock/tenants`) the mock holds at once
   * (default {@link DEFAULT_MAX_TENANTS}); past it `isolate()` throws and `POST /__mock/tenants`
   * answers 409 `tenant_limit_reached` until one is deleted.
   */
  readonly maxTenants?: number;
  /**
   * The operations the mock serves, each its row of the operation table and its behaviour; by
   * default every operation of the API. Internal, for the project's own tests (an operation a test
   * defines, served by `api.fetch`, MSW and the server and described by `/openapi.json`, proves that
   * everything about an operation derives from its row): its shape may change in any release.
   * @internal
   */
  readonly operations?: readonly MockOperation[];
}

/** Options after defaults and checks. */
export interface ResolvedOptions {
  readonly keys: readonly { key: string; tenantId: string | undefined }[];
  readonly seed: Seed;
  readonly clock: Clock;
  /** Origin and path of the base URL, without a trailing slash. */
  readonly baseUrl: string;
  /** The base URL's path without a trailing slash ("" for a host root). */
  readonly basePath: string;
  readonly fixtures: ((state: MockState) => void) | undefined;
  readonly webhooks: NonNullable<MockApiOptions["webhooks"]>;
  readonly retainedRequests: number;
  readonly maxTenants: number;
  /** The `operations` option as given (the mock then serves every operation of the API). */
  readonly operations: readonly MockOperation[] | undefined;
}

function resolveBaseUrl(baseUrl: string): { baseUrl: string; basePath: string } {
  if (!z.safeParse(HttpUrl, baseUrl).success) throw new TypeError("createMockApi: baseUrl must be an absolute http or https URL");
  const url = new URL(baseUrl);
  if (url.search !== "" || url.hash !== "") throw new TypeError("createMockApi: baseUrl must not have a query or a fragment");
  const basePath = url.pathname.replace(/\/+$/, "");
  return { baseUrl: url.origin + basePath, basePath };
}

/**
 * Applies defaults and checks the options.
 * @throws {TypeError} for a malformed option
 */
export function resolveOptions(options: MockApiOptions): ResolvedOptions {
  const { apiKeys = [DEFAULT_API_KEY], seed = DEFAULT_SEED, now = () => Date.now(), fixtures, webhooks = {} } = options;
  const { retainedRequests = DEFAULT_RETAINED_REQUESTS, maxTenants = DEFAULT_MAX_TENANTS } = options;
  if (typeof seed !== "number" && typeof seed !== "string") throw new TypeError("createMockApi: seed must be a number or a string");
  if (typeof now !== "function") throw new TypeError("createMockApi: now must be a function returning a Date or epoch milliseconds");
  readClock(now);
  if (fixtures !== undefined && typeof fixtures !== "function") throw new TypeError("createMockApi: fixtures must be a function");
  if (typeof apiKeys !== "object" || apiKeys === null) throw new TypeError("createMockApi: apiKeys must be a list or a map of keys");
  const keys = Array.isArray(apiKeys)
    ? apiKeys.map((key: string) => ({ key, tenantId: undefined }))
    : Object.entries(apiKeys as Record<string, string>).map(([key, tenantId]) => ({ key, tenantId }));
  checkRetainedRequests(retainedRequests);
  if (!(Number.isInteger(maxTenants) && maxTenants >= 0)) throw new TypeError("createMockApi: maxTenants must be a whole number >= 0");
  const { operations } = options;
  if (
    operations !== undefined &&
    (!Array.isArray(operations) || !operations.every((entry) => typeof entry?.run === "function" && typeof entry.row?.path === "string"))
  )
    throw new TypeError("createMockApi: operations must be a list of { row, run }");
  return {
    keys,
    seed,
    clock: now,
    fixtures,
    webhooks,
    retainedRequests,
    maxTenants,
    operations,
    ...resolveBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL),
  };
}
