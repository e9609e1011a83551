/**
 * The control API's routes, as data: method, path, schemas, answer and what each does through
 * the mock's public state API. The router serves this table and the OpenAPI document describes
 * it, so the two cannot drift apart.
 * @module
 */
import { Page } from "../../src/schemas/index.js";
import type { MockApi } from "../mock-api.js";
import { compileMatch } from "../pipeline/fault-match.js";
import type { MockFaults } from "../pipeline/faults.js";
import { INDEX_ROUTE } from "./index-route.js";
import { type ControlRoute, missingReference, notFound, Refusal } from "./route.js";
import {
  ControlFault,
  ControlPageCreate,
  ControlPageGroupCreate,
  ControlPageVersionCreate,
  ControlPageVersionProcess,
  ControlProspectLogQuery,
  ControlResetQuery,
  ControlSubscriptionCreate,
  IsolatedTenantSchema,
  LoggedRequestSchema,
  listOf,
  PageGroupRecordSchema,
  PageVersionRecordSchema,
  PendingFaultSchema,
  ProspectLogRecordSchema,
  ProspectRecordSchema,
  ResetResult,
  SubscriptionRecordSchema,
  TenantStateSchema,
} from "./schemas.js";
import { WEBHOOK_ROUTES } from "./webhook-routes.js";

/** Arms one fault for the caller's tenant (`times: null` lasts until the faults are cleared); a match naming no field of the operation is refused. */
function armFault(faults: MockFaults, fault: ControlFault): Refusal | undefined {
  if (fault.match !== undefined) {
    const compiled = compileMatch(fault.operation ?? "all", fault.match);
    if (Array.isArray(compiled)) {
      return new Refusal(
        400,
        "The match names what this fault's operation does not have (see errors).",
        compiled.map(({ field, detail }) => ({ pointer: field === "" ? "/match" : `/match/${field}`, code: "invalid_value", detail })),
      );
    }
  }
  const scope = {
    operation: fault.operation,
    times: fault.times === null ? Infinity : fault.times,
    ...(fault.match !== undefined && { match: fault.match }),
  };
  if (fault.kind === "status") faults.status(fault.status, { ...scope, retryAfter: fault.retryAfter });
  else if (fault.kind === "latency") faults.latency(fault.ms, scope);
  else if (fault.kind === "network-error") faults.networkError({ ...scope, afterProcessing: fault.afterProcessing });
  else faults.malformedBody(scope);
  return undefined;
}

/** The faults armed for the caller's tenant, as JSON (an unlimited fault has `remaining: null`). */
function pendingFaults(faults: MockFaults): unknown {
  const data = faults.pending().map(({ fault, operation, match, remaining }) => ({
    fault,
    operation,
    ...(match && { match }),
    remaining: Number.isFinite(remaining) ? remaining : null,
  }));
  return { data };
}

/** The tenant's whole state for `GET /__mock/state`: signing secrets, current and previous, stay behind their own route. */
function tenantState(api: MockApi, tenantId: string): unknown {
  const { state } = api;
  const pages = state.pages.list({ tenantId }).map((page) => ({
    ...state.pages.view(page.id, { tenantId }),
    versions: state.pageVersions.list({ tenantId, pageId: page.id }),
  }));
  return {
    prospects: state.prospects.list({ tenantId }),
    prospectLogs: state.prospectLogs.list({ tenantId }),
    pageGroups: state.pageGroups.list({ tenantId }),
    pages,
    webhookSubscriptions: state.webhookSubscriptions.list({ tenantId }).map(({ secret: _secret, previousSecret: _previous, ...rest }) => rest),
  };
}

/** Every route of the control API, under `/__mock`. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  {
    method: "POST",
    path: "/__mock/reset",
    operationId: "resetMock",
    summary:
      "Reset your tenant to its start state (its fixtures again, its requests, faults and deliveries forgotten); with ?scope=server the whole mock, every tenant",
    query: ControlResetQuery,
    response: ResetResult,
    announces: "self",
    run({ api, tenantId, query }) {
      if (query.scope === "server") api.reset();
      else api.tenant(tenantId).reset();
      return { reset: true, scope: query.scope ?? "tenant" };
    },
  },
  {
    method: "POST",
    path: "/__mock/tenants",
    operationId: "createIsolatedTenant",
    summary: "Create a new, empty tenant with a new random API key, for one test or CI job: its data, faults, requests and reset are its own",
    status: 201,
    response: IsolatedTenantSchema,
    run({ api }) {
      const { tenantId, apiKey } = api.isolate();
      return { tenantId, apiKey };
    },
  },
  {
    method: "POST",
    path: "/__mock/page_groups",
    operationId: "createPageGroup",
    summary: "Create a page group",
    body: ControlPageGroupCreate,
    status: 201,
    response: PageGroupRecordSchema,
    run: ({ api, tenantId, body }) => api.state.pageGroups.create({ ...body, tenantId }),
  },
  {
    method: "POST",
    path: "/__mock/pages",
    operationId: "createPage",
    summary: "Create a page (in a new page group unless pageGroupId is given)",
    body: ControlPageCreate,
    status: 201,
    response: Page,
    run({ api, tenantId, body }) {
      if (body.pageGroupId !== undefined && api.state.pageGroups.get(body.pageGroupId, { tenantId }) === undefined) {
        return missingReference("pageGroupId", "page group");
      }
      const page = api.state.pages.create({ ...body, tenantId });
      return api.state.pages.view(page.id, { tenantId });
    },
  },
  {
    method: "POST",
    path: "/__mock/page_versions",
    operationId: "createPageVersion",
    summary: "Add the next version to a page (emits page.version.created)",
    body: ControlPageVersionCreate,
    status: 201,
    response: PageVersionRecordSchema,
    run({ api, tenantId, body }) {
      if (api.state.pages.get(body.pageId, { tenantId }) === undefined) return missingReference("pageId", "page");
      return api.state.pageVersions.create({ ...body, tenantId });
    },
  },
  {
    method: "POST",
    path: "/__mock/page_versions/{versionId}/process",
    operationId: "processPageVersion",
    summary: "Record a version's computed name, which becomes the page's (emits page.version.processed)",
    body: ControlPageVersionProcess,
    response: PageVersionRecordSchema,
    run({ api, tenantId, params, body }) {
      const id = params["versionId"]!;
      if (api.state.pageVersions.get(id, { tenantId }) === undefined) return notFound("page version", id);
      return api.state.pageVersions.process(id, body, { tenantId });
    },
  },
  {
    method: "POST",
    path: "/__mock/page_versions/{versionId}/publish",
    operationId: "publishPageVersion",
    summary: "Publish a processed version: GET page shows it from now on (emits page.version.published)",
    response: PageVersionRecordSchema,
    run({ api, tenantId, params }) {
      const id = params["versionId"]!;
      if (api.state.pageVersions.get(id, { tenantId }) === undefined) return notFound("page version", id);
      return api.state.pageVersions.publish(id, { tenantId });
    },
  },
  {
    method: "POST",
    path: "/__mock/webhook_subscriptions",
    operationId: "createWebhookSubscription",
    summary: "Create a webhook subscription (answers its signing secret)",
    body: ControlSubscriptionCreate,
    status: 201,
    response: SubscriptionRecordSchema,
    run: ({ api, tenantId, body }) => api.state.webhookSubscriptions.create({ ...body, tenantId }),
  },
  {
    method: "GET",
    path: "/__mock/state",
    operationId: "getTenantState",
    summary: "Everything your tenant holds: prospects, logs, page groups, pages with their versions, subscriptions (secrets left out)",
    response: TenantStateSchema,
    run: ({ api, tenantId }) => tenantState(api, tenantId),
  },
  {
    method: "GET",
    path: "/__mock/prospects",
    operationId: "listProspects",
    summary: "List the prospects of your tenant, oldest first",
    response: listOf(ProspectRecordSchema),
    run: ({ api, tenantId }) => ({ data: api.state.prospects.list({ tenantId }) }),
  },
  {
    method: "GET",
    path: "/__mock/prospect_logs",
    operationId: "listProspectLogs",
    summary: "List the prospect log entries of your tenant (or of one prospect), oldest first",
    query: ControlProspectLogQuery,
    response: listOf(ProspectLogRecordSchema),
    run: ({ api, tenantId, query }) => ({ data: api.state.prospectLogs.list({ tenantId, prospectId: query.prospectId }) }),
  },
  {
    method: "GET",
    path: "/__mock/requests",
    operationId: "listRecordedRequests",
    summary: "List the API requests your tenant made since the last reset, oldest first (never a header)",
    response: listOf(LoggedRequestSchema),
    run: ({ requestsOfTenant }) => ({ data: requestsOfTenant() }),
  },
  {
    method: "GET",
    path: "/__mock/faults",
    operationId: "listFaults",
    summary: "List the faults still armed for your tenant",
    response: listOf(PendingFaultSchema),
    run: ({ api, tenantId }) => pendingFaults(api.tenant(tenantId).faults),
  },
  {
    method: "POST",
    path: "/__mock/faults",
    operationId: "injectFault",
    summary: "Arm a fault (status, latency, dropped connection, malformed body) for your tenant's next API calls, or only those a match names",
    body: ControlFault,
    status: 201,
    response: listOf(PendingFaultSchema),
    run({ api, tenantId, body }) {
      const { faults } = api.tenant(tenantId);
      return armFault(faults, body) ?? pendingFaults(faults);
    },
  },
  {
    method: "DELETE",
    path: "/__mock/faults",
    operationId: "clearFaults",
    summary: "Disarm every fault of your tenant",
    response: listOf(PendingFaultSchema),
    run({ api, tenantId }) {
      const { faults } = api.tenant(tenantId);
      faults.clear();
      return pendingFaults(faults);
    },
  },
  ...WEBHOOK_ROUTES,
  INDEX_ROUTE,
];
