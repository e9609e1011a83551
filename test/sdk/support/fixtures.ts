import { expect } from "vitest";
import { type ClientOptions, createClient } from "../../../src/index.js";

/** The API key of every test: long and unique, so a leak is found by a plain substring search. */
export const API_KEY = "pk_test_SECRET_7d41c0e9a2b84f5e";

const ULID = "01hzy8k3m4n5p6q7r8s9t0v1wx";

/** A valid create response (spec 2.2). */
export const prospectLog = {
  prospectId: `prospect_${ULID}`,
  prospectLogId: `prospectlog_${ULID}`,
  createdAt: "2024-02-29T12:00:00.000Z",
  createdProspect: true,
  source: "crm",
  type: "webhook",
};

/** A valid page (spec 2.3). */
export const page = {
  pageId: `page_${ULID}`,
  pageGroupId: `pagegroup_${ULID}`,
  tenantId: `tenant_${ULID}`,
  createdAt: "2024-02-29T12:00:00.000Z",
  effectiveName: "Pricing",
  customName: null,
  computedName: "Pricing",
  supplementaryContext: null,
  publishedVersion: { versionId: `pageversion_${ULID}`, versionNumber: 3, publishedAt: "2024-03-01T00:00:00.000Z" },
};

/** A valid webhook subscription (spec 2.4). */
export const subscription = {
  id: `webhooksubscription_${ULID}`,
  url: "https://hooks.example.com/in",
  events: ["page.version.published"],
  active: false,
  createdAt: "2024-02-29T12:00:00.000Z",
  updatedAt: "2024-03-01T00:00:00.000Z",
};

/** A valid create request. */
export const createBody = { source: "crm", payload: { stage: "demo" }, email: "a@b.co" };

/** A client for `baseUrl` with the test key and no retry delays worth waiting for. */
export function clientFor(baseUrl: string, options: ClientOptions = {}) {
  return createClient({ apiKey: API_KEY, baseUrl, ...options });
}

/** The error a promise rejects with; fails the test when it resolves. */
export function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("the call should fail"),
    (error: unknown) => error,
  );
}
