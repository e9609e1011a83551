/**
 * Cross-tenant abuse (issue 7.3): two keys, two tenants with the same shape of data, on the
 * standalone server over real HTTP. For every API operation (through the SDK) and every control
 * route (plain HTTP), in both directions, a request naming the other tenant's resource is answered
 * exactly like one naming a resource that does not exist: the same status, code and detail. No
 * answer carries anything of the other tenant it was not sent, and the other tenant's data is
 * untouched. The control-route table must name every route of `CONTROL_ROUTES`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CONTROL_ROUTES } from "../../mock/control/routes.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { createClient, ProspectKitError } from "../../src/index.js";
import { undescribedAnswers, watchControlAnswers } from "../server/support/control-answers.js";
import { API_KEYS, secretsOf, seedTenants, TENANTS, type TenantData } from "./support/tenants.js";

/** IDs nobody holds: what "a missing resource" is named with. */
const MISSING: TenantData = {
  tenantId: "tenant_missing",
  key: "unused",
  group: "pagegroup_missing",
  page: "page_missing",
  openVersion: "pageversion_missing",
  subscription: "whsub_missing",
  prospectId: "prospect_01hzy8k3m4n5p6q7r8s9t0v1zz",
  email: "nobody@example.com",
  idempotencyKey: "idem-missing-1",
};
const ID_FIELDS = ["group", "page", "openVersion", "subscription", "prospectId", "email", "idempotencyKey", "tenantId"] as const;

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ port: 0, apiKeys: API_KEYS, seed: 11, fixtures: seedTenants });
});
afterAll(() => server.close());
beforeEach(() => server.api.reset());

/** An answer reduced to what must not differ between "another tenant's" and "missing". */
interface Outcome {
  status: number;
  text: string;
  shape: unknown;
}

/** Replaces the target's IDs with their names, so answers about different IDs compare equal. */
function normalise(text: string, target: TenantData): string {
  let out = text;
  for (const field of ID_FIELDS) out = out.replaceAll(target[field], `{${field}}`);
  return out;
}

/** Everything one tenant keeps, as one string: it must not change when its neighbour calls. */
function tenantView(t: TenantData): string {
  const { state } = server.api;
  const tenantId = t.tenantId;
  return JSON.stringify({
    groups: state.pageGroups.get(t.group, { tenantId }),
    page: state.pages.view(t.page, { tenantId }),
    version: state.pageVersions.get(t.openVersion, { tenantId }),
    subscription: state.webhookSubscriptions.get(t.subscription, { tenantId }),
    prospects: state.prospects.list({ tenantId }),
    logs: state.prospectLogs.list({ tenantId }),
  });
}

// ---------------------------------------------------------------------------------------------
// The API's operations, through the SDK.

type Sdk = ReturnType<typeof createClient>;

interface OperationRow {
  readonly name: string;
  /** The expected answer (to both the other tenant's IDs and missing ones). */
  readonly status: 201 | 404;
  readonly operation: "getPage" | "updateWebhookSubscription" | "createProspectLog";
  /** The operation's input, naming the target tenant's data. */
  readonly input: (caller: TenantData, target: TenantData) => object;
}

const OPERATION_ROWS: readonly OperationRow[] = [
  { name: "getPage of the other tenant's page", status: 404, operation: "getPage", input: (_, t) => ({ pageGroupId: t.group, pageId: t.page }) },
  {
    name: "getPage of the other tenant's page under the caller's own group",
    status: 404,
    operation: "getPage",
    input: (c, t) => ({ pageGroupId: c.group, pageId: t.page }),
  },
  {
    name: "updateWebhookSubscription of the other tenant's subscription",
    status: 404,
    operation: "updateWebhookSubscription",
    input: (_, t) => ({ subscriptionId: t.subscription, active: false }),
  },
  {
    name: "createProspectLog naming the other tenant's prospectId (a new prospect of the caller's own)",
    status: 201,
    operation: "createProspectLog",
    input: (_, t) => ({ source: "crm", payload: {}, prospectId: t.prospectId }),
  },
  {
    name: "createProspectLog with the other tenant's prospect's email (a new prospect of the caller's own)",
    status: 201,
    operation: "createProspectLog",
    input: (_, t) => ({ source: "crm", payload: {}, email: t.email }),
  },
  {
    name: "createProspectLog repeating the other tenant's request and idempotency key (no replay)",
    status: 201,
    operation: "createProspectLog",
    input: (_, t) => ({ source: "crm", payload: { owner: t.tenantId }, prospectId: t.prospectId, idempotencyKey: t.idempotencyKey }),
  },
];

async function viaSdk(row: OperationRow, caller: TenantData, target: TenantData): Promise<Outcome> {
  const sdk = createClient({ apiKey: caller.key, baseUrl: server.url, maxRetries: 0 });
  const call = sdk[row.operation] as (input: object) => ReturnType<Sdk["getPage"]>;
  try {
    const { data, response } = await call(row.input(caller, target)).withResponse();
    const result = data as unknown as Record<string, unknown>;
    return {
      status: response.status,
      text: JSON.stringify(result),
      shape: { createdProspect: result["createdProspect"], replayed: response.headers.get("idempotent-replayed") },
    };
  } catch (error) {
    if (!ProspectKitError.is(error)) throw error;
    const { kind, status, code, detail } = error as ProspectKitError & { status?: number; code?: string; detail?: string };
    return { status: status ?? 0, text: JSON.stringify(error), shape: { kind, code, detail: normalise(detail ?? "", target) } };
  }
}

const DIRECTIONS = [
  ["A calls B's", TENANTS.a, TENANTS.b],
  ["B calls A's", TENANTS.b, TENANTS.a],
] as const;

describe("every operation: the other tenant's resource is answered exactly like a missing one", () => {
  const cases = OPERATION_ROWS.flatMap((row) =>
    DIRECTIONS.map(([direction, caller, other]) => ({ label: `${direction}: ${row.name}`, row, caller, other })),
  );

  it.each(cases)("$label", async ({ row, caller, other }) => {
    const before = tenantView(other);
    const foreign = await viaSdk(row, caller, other);
    expect(tenantView(other)).toBe(before);
    server.api.reset();
    const missing = await viaSdk(row, caller, MISSING);
    expect(foreign.status).toBe(row.status);
    expect(missing.status).toBe(row.status);
    expect(foreign.shape).toEqual(missing.shape);
    for (const secret of secretsOf(other, JSON.stringify(row.input(caller, other)))) expect(foreign.text).not.toContain(secret);
  });
});

// ---------------------------------------------------------------------------------------------
// The control API, over plain HTTP.

interface Sent {
  readonly method: "GET" | "POST" | "DELETE";
  readonly path: string;
  readonly json?: unknown;
}

/** How a route treats another tenant's data. */
type Expectation =
  /** It names a resource: the other tenant's answers exactly like a missing one, with this status. */
  | { readonly like: "missing"; readonly status: number }
  /** It lists: nothing of the other tenant is listed, also right after the other tenant was busy. */
  | { readonly like: "listing" }
  /** It acts on or lists the caller's own webhook records only: its answer names no other tenant. */
  | { readonly like: "own"; readonly status: number };

interface ControlRow {
  readonly operationId: string;
  readonly request: (caller: TenantData, target: TenantData) => Sent;
  readonly expect: Expectation;
}

const CONTROL_ROWS: readonly ControlRow[] = [
  // A reset with a tenant's key resets that tenant only: the other's data stays as it was.
  { operationId: "resetMock", request: () => ({ method: "POST", path: "/__mock/reset" }), expect: { like: "own", status: 200 } },
  { operationId: "createIsolatedTenant", request: () => ({ method: "POST", path: "/__mock/tenants" }), expect: { like: "own", status: 201 } },
  { operationId: "getTenant", request: () => ({ method: "GET", path: "/__mock/tenant" }), expect: { like: "own", status: 200 } },
  // Another start tenant is never deleted, and answers like a tenant that does not exist.
  {
    operationId: "deleteTenant",
    request: (_, t) => ({ method: "DELETE", path: `/__mock/tenants/${t.tenantId}` }),
    expect: { like: "missing", status: 404 },
  },
  // An ID is per tenant: the other tenant's is as free as an unused one, and the record is the caller's.
  {
    operationId: "createPageGroup",
    request: (_, t) => ({ method: "POST", path: "/__mock/page_groups", json: { id: t.group } }),
    expect: { like: "missing", status: 201 },
  },
  // A reference in a body: refused with a field error (`/pageGroupId` not_found), like a missing one.
  {
    operationId: "createPage",
    request: (_, t) => ({ method: "POST", path: "/__mock/pages", json: { pageGroupId: t.group } }),
    expect: { like: "missing", status: 400 },
  },
  {
    operationId: "createPageVersion",
    request: (_, t) => ({ method: "POST", path: "/__mock/page_versions", json: { pageId: t.page } }),
    expect: { like: "missing", status: 400 },
  },
  {
    operationId: "processPageVersion",
    request: (_, t) => ({ method: "POST", path: `/__mock/page_versions/${t.openVersion}/process`, json: { computedName: "Taken over" } }),
    expect: { like: "missing", status: 404 },
  },
  {
    operationId: "publishPageVersion",
    request: (_, t) => ({ method: "POST", path: `/__mock/page_versions/${t.openVersion}/publish` }),
    expect: { like: "missing", status: 404 },
  },
  {
    operationId: "createWebhookSubscription",
    request: (_, t) => ({ method: "POST", path: "/__mock/webhook_subscriptions", json: { id: t.subscription, url: "https://hooks.example.com/x" } }),
    expect: { like: "missing", status: 201 },
  },
  { operationId: "listProspects", request: () => ({ method: "GET", path: "/__mock/prospects" }), expect: { like: "listing" } },
  {
    operationId: "listProspectLogs",
    request: (_, t) => ({ method: "GET", path: `/__mock/prospect_logs?prospectId=${t.prospectId}` }),
    expect: { like: "missing", status: 200 },
  },
  { operationId: "listRecordedRequests", request: () => ({ method: "GET", path: "/__mock/requests" }), expect: { like: "listing" } },
  { operationId: "exportRecordedRequests", request: () => ({ method: "GET", path: "/__mock/requests.har" }), expect: { like: "listing" } },
  { operationId: "getTenantState", request: () => ({ method: "GET", path: "/__mock/state" }), expect: { like: "listing" } },
  {
    operationId: "getWebhookSubscriptionSecret",
    request: (_, t) => ({ method: "GET", path: `/__mock/webhook_subscriptions/${t.subscription}/secret` }),
    expect: { like: "missing", status: 404 },
  },
  { operationId: "listWebhookEvents", request: () => ({ method: "GET", path: "/__mock/webhook_events" }), expect: { like: "own", status: 200 } },
  {
    operationId: "emitFormEvent",
    request: () => ({ method: "POST", path: "/__mock/webhook_events", json: { kind: "form.submitted", data: { x: 1 } } }),
    expect: { like: "own", status: 201 },
  },
  {
    operationId: "redeliverWebhookEvent",
    request: (_, t) => ({
      method: "POST",
      path: `/__mock/webhook_events/${server.api.webhooks.events().find((e) => e.tenantId === t.tenantId)?.event.id ?? "event_none"}/redeliver`,
    }),
    // 404 like an unknown event (the answer echoes the ID, so it is compared in test/server/webhook-control.test.ts instead).
    expect: { like: "own", status: 404 },
  },
  {
    operationId: "listWebhookDeliveries",
    request: () => ({ method: "GET", path: "/__mock/webhook_deliveries" }),
    expect: { like: "own", status: 200 },
  },
  {
    operationId: "runWebhookDeliveries",
    request: () => ({ method: "POST", path: "/__mock/webhook_deliveries/run" }),
    expect: { like: "own", status: 200 },
  },
  {
    operationId: "rotateWebhookSecret",
    request: (_, t) => ({ method: "POST", path: `/__mock/webhook_subscriptions/${t.subscription}/secret/rotate` }),
    expect: { like: "missing", status: 404 },
  },
  // The inbox takes no key: it stores only for a tenant whose subscription points at it, and none points here.
  {
    operationId: "receiveWebhook",
    request: (_, t) => ({ method: "POST", path: `/__mock/inbox/${t.tenantId}`, json: {} }),
    expect: { like: "missing", status: 404 },
  },
  { operationId: "listInbox", request: (_, t) => ({ method: "GET", path: `/__mock/inbox/${t.tenantId}` }), expect: { like: "own", status: 200 } },
  // Faults belong to the tenant that armed them: listed, armed and cleared within it.
  { operationId: "listFaults", request: () => ({ method: "GET", path: "/__mock/faults" }), expect: { like: "own", status: 200 } },
  {
    operationId: "injectFault",
    request: () => ({ method: "POST", path: "/__mock/faults", json: { kind: "latency", ms: 1, times: 1 } }),
    expect: { like: "own", status: 201 },
  },
  { operationId: "clearFaults", request: () => ({ method: "DELETE", path: "/__mock/faults" }), expect: { like: "own", status: 200 } },
  // The index lists routes, the same for every caller: no tenant's data.
  { operationId: "getControlIndex", request: () => ({ method: "GET", path: "/__mock" }), expect: { like: "own", status: 200 } },
];

async function send(caller: TenantData, sent: Sent): Promise<{ status: number; text: string; body: any }> {
  const response = await fetch(server.url + sent.path, {
    method: sent.method,
    headers: { "x-api-key": caller.key, ...(sent.json !== undefined && { "content-type": "application/json" }) },
    ...(sent.json !== undefined && { body: JSON.stringify(sent.json) }),
  });
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

/** The answer without what legitimately differs between two calls: request IDs, times, secrets. */
function comparable(text: string, target: TenantData): unknown {
  return JSON.parse(normalise(text, target), (key, value: unknown) =>
    ["requestId", "createdAt", "updatedAt", "secret"].includes(key) ? "…" : value,
  );
}

/** Makes a tenant busy (API requests and a log of its own), so that a listing has something to show or leak. */
async function busy(t: TenantData): Promise<void> {
  const sdk = createClient({ apiKey: t.key, baseUrl: server.url, maxRetries: 0 });
  await sdk.createProspectLog({ source: "crm", payload: { busy: true }, email: t.email });
  await sdk.getPage({ pageGroupId: t.group, pageId: t.page });
}

describe("every control route: another tenant's data is out of reach", () => {
  it("the table names every control route, once", () => {
    expect(CONTROL_ROWS.map((row) => row.operationId).sort()).toEqual(CONTROL_ROUTES.map((route) => route.operationId).sort());
  });

  const cases = CONTROL_ROWS.flatMap((row) =>
    DIRECTIONS.map(([direction, caller, other]) => ({ label: `${direction}: ${row.operationId} (${row.expect.like})`, row, caller, other })),
  );

  it.each(cases)("$label", async ({ row, caller, other }) => {
    await busy(caller);
    await busy(other);
    const before = tenantView(other);
    const sent = row.request(caller, other);
    const answer = await send(caller, sent);
    expect(tenantView(other)).toBe(before);
    for (const secret of secretsOf(other, JSON.stringify(sent))) expect(answer.text).not.toContain(secret);
    expect(answer.status).toBeLessThan(500);

    if (row.expect.like === "missing") {
      server.api.reset();
      const missing = await send(caller, row.request(caller, MISSING));
      expect(answer.status).toBe(row.expect.status);
      expect(missing.status).toBe(row.expect.status);
      expect(comparable(answer.text, other)).toEqual(comparable(missing.text, MISSING));
      if (answer.status < 300 && answer.body.tenantId !== undefined) expect(answer.body.tenantId).toBe(caller.tenantId);
    }
    if (row.expect.like === "own") {
      expect(answer.status).toBe(row.expect.status);
      expect(JSON.stringify(answer.body)).not.toContain(other.tenantId);
    }
    if (row.expect.like === "listing") {
      expect(answer.status).toBe(200);
      // A listing is `{ data }`; the tenant's state (`GET /__mock/state`) lists its prospects and more; a HAR its `log.entries`.
      expect((answer.body.data ?? answer.body.prospects ?? answer.body.log.entries).length).toBeGreaterThan(0);
      expect(JSON.stringify(answer.body)).not.toContain(other.tenantId);
      // The other tenant's requests carried its email: none of them is listed (a HAR names no tenant).
      expect(JSON.stringify(answer.body)).not.toContain(other.email);
    }
  });
});

// Issue 32: the control document states exactly what the server does; every answer this suite received is one it describes.
const watched = watchControlAnswers();
describe("the control API's OpenAPI document", () => {
  it("describes every answer this suite received from a control route: its status, media type and body", async () => {
    await watched.settled();
    const { problems, checked } = undescribedAnswers(watched.answers);
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });
});
