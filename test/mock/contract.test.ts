/**
 * Contract: the SDK, pointed straight at `api.fetch`, with strict response validation, for every
 * operation and every fixture shape (null names, unpublished pages, `events: null`), and its
 * error and retry paths against the mock's problems and faults.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createMockApi } from "../../mock/index.js";
import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  createClient,
  NotFoundError,
  RateLimitError,
  UnprocessableEntityError,
} from "../../src/index.js";
import { A, B_PROSPECT, KEYS, KNOWN, SUBSCRIPTIONS, seedFixtures, T0 } from "../conformance/fixtures.js";

let now = T0;
const api = createMockApi({ apiKeys: { [KEYS.a]: "tenant_a", [KEYS.b]: "tenant_b" }, seed: 7, now: () => now, fixtures: seedFixtures });
const client = createClient({ apiKey: KEYS.a, baseUrl: api.baseUrl, fetch: api.fetch, validateResponses: "strict", maxRetries: 2 });

beforeEach(() => {
  now = T0;
  api.reset();
});

describe("the SDK against api.fetch, responses validated strictly", () => {
  it.each([
    ["no identifiers, type omitted", { source: "crm", payload: {} }, { type: "webhook", createdProspect: true }],
    ["a known prospectId", { source: "crm", payload: { a: 1 }, prospectId: KNOWN.id }, { prospectId: KNOWN.id, createdProspect: false }],
    [
      "an email in another case",
      { source: "crm", payload: {}, email: KNOWN.email.toUpperCase(), type: "visit" },
      { prospectId: KNOWN.id, type: "visit" },
    ],
    ["another tenant's prospect ID", { source: "crm", payload: {}, prospectId: B_PROSPECT.id }, { prospectId: B_PROSPECT.id, createdProspect: true }],
  ])("createProspectLog with %s", async (_, body, expected) => {
    expect(await client.createProspectLog(body)).toMatchObject({ ...expected, createdAt: "2024-02-29T12:00:00.000Z" });
  });

  it.each([
    ["a custom name, published", A.group, A.custom, { effectiveName: "Pricing", publishedVersion: { versionNumber: 1 } }],
    [
      "customName null, never published",
      A.group,
      A.nullName,
      { customName: null, publishedVersion: { versionId: null, versionNumber: null, publishedAt: null } },
    ],
    ["a blank custom name", A.group, A.blank, { effectiveName: "AI blank" }],
    ["a newer unpublished version", A.group, A.versions, { publishedVersion: { versionNumber: 2 } }],
    ["IDs that need URL encoding", A.oddGroup, A.oddPage, { pageId: A.oddPage, pageGroupId: A.oddGroup }],
  ])("getPage with %s", async (_, pageGroupId, pageId, expected) => {
    expect(await client.getPage({ pageGroupId, pageId })).toMatchObject(expected);
  });

  it.each([
    ["events: null (all kinds), as a no-op", SUBSCRIPTIONS.all, {}, { events: null, active: true }],
    ["events as a list, de-duplicated", SUBSCRIPTIONS.list, { events: ["form.enriched", "form.enriched"] as const }, { events: ["form.enriched"] }],
    ["an inactive subscription, activated", SUBSCRIPTIONS.inactive, { active: true }, { active: true }],
    ["a new url", SUBSCRIPTIONS.all, { url: "https://new.example.com/h" }, { url: "https://new.example.com/h" }],
  ])("updateWebhookSubscription with %s", async (_, subscriptionId, changes, expected) => {
    expect(await client.updateWebhookSubscription({ subscriptionId, ...changes })).toMatchObject(expected);
  });

  it("withResponse gives the mock's x-request-id", async () => {
    const { requestId } = await client.getPage({ pageGroupId: A.group, pageId: A.custom }).withResponse();
    expect(requestId).toBe(api.requests.last()?.requestId);
  });
});

describe("the SDK's error classes for the mock's problems", () => {
  it.each([
    ["404 for an unknown page", () => client.getPage({ pageGroupId: A.group, pageId: "page_missing" }), NotFoundError, "not_found"],
    [
      "404 for another tenant's subscription",
      () =>
        createClient({ apiKey: KEYS.b, baseUrl: api.baseUrl, fetch: api.fetch }).updateWebhookSubscription({
          subscriptionId: SUBSCRIPTIONS.all,
          active: false,
        }),
      NotFoundError,
      "not_found",
    ],
    [
      "401 for an unknown key",
      () => createClient({ apiKey: "pk_wrong", baseUrl: api.baseUrl, fetch: api.fetch }).getPage({ pageGroupId: A.group, pageId: A.custom }),
      AuthenticationError,
      "invalid_api_key",
    ],
    [
      "400 from the server when request validation is off",
      () => client.updateWebhookSubscription({ subscriptionId: SUBSCRIPTIONS.all, events: [] }, { validateRequests: false }),
      BadRequestError,
      "invalid_request",
    ],
  ] as const)("%s", async (_, call, errorClass, code) => {
    const error = await call().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(errorClass);
    expect((error as { code: string }).code).toBe(code);
  });

  it("422 when an idempotency key is reused with another body", async () => {
    await client.createProspectLog({ source: "crm", payload: {}, idempotencyKey: "k1" });
    await expect(client.createProspectLog({ source: "other", payload: {}, idempotencyKey: "k1" })).rejects.toBeInstanceOf(UnprocessableEntityError);
  });

  it("409 while a request with the key is in flight (no retry: the SDK leaves a conflict to its caller)", async () => {
    api.faults.latency(300, { operation: "createProspectLog" });
    const first = client.createProspectLog({ source: "crm", payload: {}, idempotencyKey: "k2" });
    while (!api.state.snapshot().includes('"result":null')) await new Promise((resolve) => setTimeout(resolve, 2));
    await expect(client.createProspectLog({ source: "crm", payload: {}, idempotencyKey: "k2" })).rejects.toBeInstanceOf(ConflictError);
    await first;
  });
});

describe("the SDK's retries against the mock's faults", () => {
  it("a 503 then a success: one log, two attempts", async () => {
    api.faults.status(503, { retryAfter: 0 });
    await client.createProspectLog({ source: "crm", payload: {} });
    expect(api.requests.list().map((r) => r.status)).toEqual([503, 201]);
    expect(api.state.prospectLogs.list()).toHaveLength(1);
  });

  it("429 three times exhausts two retries: RateLimitError with Retry-After", async () => {
    api.faults.status(429, { retryAfter: 0, times: 3 });
    const error = await client.getPage({ pageGroupId: A.group, pageId: A.custom }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).attempts).toBe(3);
  });

  it("a response lost after the write: the retry with the same generated key replays it, one log stored", async () => {
    api.faults.networkError({ afterProcessing: true });
    const log = await client.createProspectLog({ source: "crm", payload: {} });
    expect(api.state.prospectLogs.list().map((l) => l.id)).toEqual([log.prospectLogId]);
    expect(api.requests.list().map((r) => r.status)).toEqual([0, 201]);
  });
});
