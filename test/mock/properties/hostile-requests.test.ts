/**
 * Property: whatever arrives (random and hostile methods, paths, headers and bodies), the mock
 * answers; never a 5xx, never an exception, always a JSON body with x-request-id; errors are
 * problem bodies, successes match their response schema; and a rejected request leaves the
 * state byte-for-byte unchanged.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMockApi } from "../../../mock/index.js";
import { Page, PROBLEM_CONTENT_TYPE, ProblemDetails, ProspectLog, WebhookSubscription } from "../../../src/schemas/index.js";
import { BASE_URL, KEYS, seedFixtures, T0 } from "../../conformance/fixtures.js";
import { body, headers, method, path, rareHugeBody } from "./arbitraries.js";

const api = createMockApi({
  apiKeys: { [KEYS.a]: "tenant_a", [KEYS.b]: "tenant_b" },
  seed: 1,
  now: () => T0,
  baseUrl: BASE_URL,
  fixtures: seedFixtures,
});

type HeaderSet = typeof headers extends fc.Arbitrary<infer T> ? T : never;

function build(m: string, p: string, h: HeaderSet, b: BodyInit | undefined): Request {
  const init: RequestInit = { method: m };
  const requestHeaders = new Headers();
  for (const [name, value] of h.extra) requestHeaders.append(name, value);
  if (h.key !== null) requestHeaders.set("x-api-key", h.key);
  if (h.contentType !== null) requestHeaders.set("content-type", h.contentType);
  init.headers = requestHeaders;
  if (b !== undefined && m !== "GET" && m !== "HEAD") init.body = b;
  return new Request(`${BASE_URL}${p}`, init);
}

async function check(request: Request): Promise<{ status: number; rejected: boolean }> {
  const before = api.state.snapshot();
  const response = await api.fetch(request);
  const text = await response.text();
  expect(response.status).toBeLessThan(500);
  expect(response.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{26}$/);
  if (request.method === "HEAD") {
    // Answered like GET without a body (RFC 9110): the same status, nothing to parse.
    expect(text).toBe("");
    if (response.status >= 400) expect(api.state.snapshot()).toBe(before);
    return { status: response.status, rejected: response.status >= 400 };
  }
  const parsed: unknown = JSON.parse(text);
  if (response.status >= 400) {
    expect(response.headers.get("content-type")).toBe(PROBLEM_CONTENT_TYPE);
    expect(ProblemDetails.safeParse(parsed).success).toBe(true);
    expect(api.state.snapshot()).toBe(before);
    return { status: response.status, rejected: true };
  }
  const schema = request.method === "POST" ? ProspectLog : request.method === "GET" ? Page : WebhookSubscription;
  expect(schema.safeParse(parsed).success).toBe(true);
  return { status: response.status, rejected: false };
}

describe("hostile requests never break the mock", () => {
  it("3,000 random requests: no 5xx, no exception, state unchanged on every rejection", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(method, path, headers, body, async (m, p, h, b) => {
        api.reset();
        const { status } = await check(build(m, p, h, b));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
      { numRuns: 3000 },
    );
    // The generators reach every outcome class, so the property was tested where it matters.
    for (const status of [200, 201, 400, 401, 404, 405, 415]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it("300 requests to the real routes with a valid key and hostile bodies, huge ones included", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(["POST", "/v0/prospect_logs"], ["PATCH", "/v0/webhook_subscriptions/whsub_all"]),
        fc.constantFrom("application/json", "application/json; charset=utf-8"),
        rareHugeBody,
        async ([m, p], contentType, b) => {
          api.reset();
          const { status } = await check(build(m!, p!, { key: KEYS.a, contentType, extra: [] }, b));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      ),
      { numRuns: 300 },
    );
    for (const status of [200, 201, 400]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
  }, 120_000);

  it("a sequence of random requests on one state: every rejection leaves it unchanged, successes accumulate", async () => {
    api.reset();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(method, path, headers, body), { minLength: 20, maxLength: 60 }), async (requests) => {
        for (const [m, p, h, b] of requests) await check(build(m, p, h, b));
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
