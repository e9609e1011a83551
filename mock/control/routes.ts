/**
 * The control API's routes, as data: method, path, schemas, answer and what each does through
 * the mock's public state API. The router serves this table and the OpenAPI document describes
 * it, so the two cannot drift apart.
 * @module
 */
import { Page } from "../../src/schemas/index.js";
import type { MockApi } from "../mock-api.js";
import { type ControlRoute, missingReference, notFound } from "./route.js";
import {
  ControlFault,
  ControlPageCreate,
  ControlPageGroupCreate,
  ControlPageVersionCreate,
  ControlPageVersionProcess,
  ControlProspectLogQuery,
  ControlSubscriptionCreate,
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

/** Arms one fault through `api.faults` (`times: null` lasts until the faults are cleared). */
function armFault(api: MockApi, fault: ControlFault): void {
  const scope = { operation: fault.operation, times: fault.times === null ? Infinity : fault.times };
  if (fault.kind === "status") api.faults.status(fault.status, { ...scope, retryAfter: fault.retryAfter });
  else if (fault.kind === "latency") api.faults.latency(fault.ms, scope);
  else if (fault.kind === "network-error") api.faults.networkError({ ...scope, afterProcessing: fault.afterProcessing });
  else api.faults.malformedBody(scope);
}

/** The armed faults as JSON (an unlimited fault has `remaining: null`). */
function pendingFaults(api: MockApi): unknown {
  const data = api.faults.pending().map((entry) => ({ ...entry, remaining: Number.isFinite(entry.remaining) ? entry.remaining : null }));
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
    summary: "Reset the whole mock to its start state (fixtures re-run, log and faults cleared)",
    response: ResetResult,
    run: ({ api }) => (api.reset(), { reset: true }),
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
    summary: "List the faults still armed",
    response: listOf(PendingFaultSchema),
    run: ({ api }) => pendingFaults(api),
  },
  {
    method: "POST",
    path: "/__mock/faults",
    operationId: "injectFault",
    summary: "Arm a fault (status, latency, dropped connection, malformed body) for the next API calls",
    body: ControlFault,
    status: 201,
    response: listOf(PendingFaultSchema),
    announces: "all",
    run: ({ api, body }) => (armFault(api, body), pendingFaults(api)),
  },
  {
    method: "DELETE",
    path: "/__mock/faults",
    operationId: "clearFaults",
    summary: "Disarm every fault",
    announces: "all",
    response: listOf(PendingFaultSchema),
    run: ({ api }) => (api.faults.clear(), pendingFaults(api)),
  },
  ...WEBHOOK_ROUTES,
];
