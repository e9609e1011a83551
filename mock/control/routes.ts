/**
 * The control API's routes, as data: method, path, schemas, answer and what each does through
 * the mock's public state API. The router serves this table and the OpenAPI document describes
 * it, so the two cannot drift apart.
 * @module
 */
import { Page } from "../../src/schemas/index.js";
import type { MockFaults } from "../faults/faults.js";
import { compileMatch } from "../faults/match.js";
import type { MockApi } from "../mock-api.js";
import { toHar } from "../observe/har.js";
import { INDEX_ROUTE } from "./index-route.js";
import { type ControlRoute, missingReference, notFound, Refusal } from "./route.js";
import {
  ControlFault,
  ControlPageCreate,
  ControlPageGroupCreate,
  ControlPageVersionCreate,
  ControlPageVersionProcess,
  ControlProspectLogQuery,
  ControlSubscriptionCreate,
  HarSchema,
  LOGGED_REQUESTS,
  listOf,
  PageGroupRecordSchema,
  PageVersionRecordSchema,
  PendingFaultSchema,
  ProspectLogRecordSchema,
  ProspectRecordSchema,
  TenantStateSchema,
  WebhookSubscriptionRecordSchema,
} from "./schemas.js";
import { TENANT_ROUTES } from "./tenant-routes.js";
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
  const data = faults.pending().map(({ fault, operation, match, remaining, nearMisses }) => ({
    fault,
    operation,
    ...(match && { match }),
    remaining: Number.isFinite(remaining) ? remaining : null,
    ...(nearMisses && { nearMisses }),
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

const TAKEN_ID = "An `id` another record of your tenant has.";

/** Every route of the control API, under `/__mock`. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...TENANT_ROUTES,
  {
    method: "POST",
    path: "/__mock/page_groups",
    operationId: "createPageGroup",
    summary: "Create a page group",
    description: "A page group of your tenant, with the `id` given or a generated one.",
    body: ControlPageGroupCreate,
    status: 201,
    response: PageGroupRecordSchema,
    refuses: { 400: TAKEN_ID },
    run: ({ api, tenantId, body }) => api.state.pageGroups.create({ ...body, tenantId }),
  },
  {
    method: "POST",
    path: "/__mock/pages",
    operationId: "createPage",
    summary: "Create a page (in a new page group unless pageGroupId is given)",
    description:
      "A page of your tenant, answered as the API shows a page (never published yet). Without `pageGroupId` the page gets a new page group.",
    body: ControlPageCreate,
    status: 201,
    response: Page,
    refuses: { 400: `${TAKEN_ID} Or a \`pageGroupId\` your tenant does not have.` },
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
    description:
      "Adds a version to a page of your tenant and emits `page.version.created` to the subscriptions that want it. Its number is the page's next one, or the `versionNumber` given (above the page's latest: the numbers between are skipped, as when a real page's history is not known).",
    body: ControlPageVersionCreate,
    status: 201,
    response: PageVersionRecordSchema,
    refuses: { 400: `${TAKEN_ID} Or a \`pageId\` your tenant does not have, or a \`versionNumber\` not above the page's latest.` },
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
    description:
      "Records the name the AI computed for a version; it becomes the page's `computedName`. Emits `page.version.processed`. A version may be processed again.",
    body: ControlPageVersionProcess,
    response: PageVersionRecordSchema,
    refuses: { 404: "Your tenant has no such page version." },
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
    description:
      "Makes a processed version the page's published one (publishing an older version again is a rollback) and emits `page.version.published`. A version never processed is refused.",
    response: PageVersionRecordSchema,
    refuses: { 400: "The version was never processed.", 404: "Your tenant has no such page version." },
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
    description:
      "A webhook subscription of your tenant (`events` null or omitted: every kind), with a new `whsec_` signing secret, answered here and afterwards only by `GET /__mock/webhook_subscriptions/{subscriptionId}/secret`.",
    body: ControlSubscriptionCreate,
    status: 201,
    response: WebhookSubscriptionRecordSchema,
    refuses: { 400: TAKEN_ID },
    run: ({ api, tenantId, body }) => api.state.webhookSubscriptions.create({ ...body, tenantId }),
  },
  {
    method: "GET",
    path: "/__mock/state",
    operationId: "getTenantState",
    summary: "Everything your tenant holds: prospects, logs, page groups, pages with their versions, subscriptions (secrets left out)",
    description: "Your tenant's whole state in one answer, oldest first in each list; signing secrets stay behind their own route.",
    response: TenantStateSchema,
    run: ({ api, tenantId }) => tenantState(api, tenantId),
  },
  {
    method: "GET",
    path: "/__mock/prospects",
    operationId: "listProspects",
    summary: "List the prospects of your tenant, oldest first",
    description: "Every prospect of your tenant with its identifiers, oldest first.",
    response: listOf(ProspectRecordSchema),
    run: ({ api, tenantId }) => ({ data: api.state.prospects.list({ tenantId }) }),
  },
  {
    method: "GET",
    path: "/__mock/prospect_logs",
    operationId: "listProspectLogs",
    summary: "List the prospect log entries of your tenant (or of one prospect), oldest first",
    description: "Every prospect log entry of your tenant, oldest first; `prospectId` keeps to one prospect's.",
    query: ControlProspectLogQuery,
    response: listOf(ProspectLogRecordSchema),
    run: ({ api, tenantId, query }) => ({ data: api.state.prospectLogs.list({ tenantId, prospectId: query.prospectId }) }),
  },
  {
    method: "GET",
    path: "/__mock/requests",
    operationId: "listRecordedRequests",
    summary: "List the API requests your tenant made since the last reset, oldest first (never a credential header)",
    description:
      "Your tenant's API requests, oldest first: the latest 10,000, kept apart from every other tenant's, so a busy neighbour never pushes yours out. The `x-api-key`, `authorization`, `proxy-authorization` and `cookie` headers are never kept, and a body, header or query value holding your key or a start key is shown as `[redacted]`. A 404 or 405 one method or one path segment away from an operation's route names it in `nearMiss`. Behind the validating proxy (`--proxy-to`) an entry's `requestId` is the one the target answered with (the proxy's own in `proxyRequestId`), and a body over 64 KiB is kept as its first 64 KiB of text, its full size in `truncated`.",
    response: LOGGED_REQUESTS,
    run: ({ requestsOfTenant }) => ({ data: requestsOfTenant() }),
  },
  {
    method: "GET",
    path: "/__mock/requests.har",
    operationId: "exportRecordedRequests",
    summary: "Your tenant's API requests as an HTTP Archive (HAR 1.2), oldest first",
    description:
      "The same requests as `GET /__mock/requests`, as an HTTP Archive for browsers' DevTools, proxies or msw's `@mswjs/source` (`fromTraffic`): your tenant's only, with no `x-api-key`, `authorization` or `cookie` header, and a body or value holding your key or a start key shown as `[redacted]`. Response headers are the media type and `x-request-id` (the log keeps no others).",
    response: HarSchema,
    run: ({ api, requestsOfTenant }) => toHar(requestsOfTenant(), new URL(api.baseUrl).origin),
  },
  {
    method: "GET",
    path: "/__mock/faults",
    operationId: "listFaults",
    summary: "List the faults still armed for your tenant",
    description: "The faults armed for your tenant's API requests that have calls left, in the order they apply.",
    response: listOf(PendingFaultSchema),
    run: ({ api, tenantId }) => pendingFaults(api.tenant(tenantId).faults),
  },
  {
    method: "POST",
    path: "/__mock/faults",
    session: true,
    operationId: "injectFault",
    summary: "Arm a fault (status, latency, dropped connection, malformed body) for your tenant's next API calls, or only those a match names",
    description:
      "Arms a fault for the next `times` API calls made with your tenant's keys (default 1; `null`: until cleared), of `operation` (default every one). A `match` names path parameters and top-level body fields of that operation, each with the value a request must carry for the fault to apply: only the fields the operation has, each of its type (the schema lists them per operation).",
    body: ControlFault,
    status: 201,
    response: listOf(PendingFaultSchema),
    refuses: { 400: "A `match` naming a field its operation does not have, a value of the wrong type, or a match without an operation." },
    run({ api, tenantId, body }) {
      const { faults } = api.tenant(tenantId);
      return armFault(faults, body) ?? pendingFaults(faults);
    },
  },
  {
    method: "DELETE",
    path: "/__mock/faults",
    session: true,
    operationId: "clearFaults",
    summary: "Disarm every fault of your tenant",
    description: "Disarms every fault of your tenant; other tenants' faults stay armed.",
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
