/**
 * The control API's tenant routes: who the caller's tenant is, a reset (of the caller's tenant,
 * or with a start key of the whole server), and the tenants made for one test or CI job, created
 * (within the server's limit) and deleted.
 * @module
 */
import { MockStateError } from "../lib/errors.js";
import { type ControlContext, type ControlRoute, notFound, Refusal } from "./route.js";
import { CallerTenantSchema, ControlResetQuery, DeletedTenantSchema, IsolatedTenantSchema, ResetResult } from "./schemas.js";

/** Whether the caller's tenant is one `POST /__mock/tenants` made (its keys act on itself only). */
const isolated = ({ api, tenantId }: ControlContext) => api.state.tenants.get(tenantId)?.isolated === true;

/** `POST /__mock/reset`: the caller's tenant, or with `?scope=server` (a start key only) the whole mock. */
function reset(context: ControlContext) {
  const { api, tenantId, query } = context;
  if (query.scope === "server") {
    if (isolated(context)) {
      return new Refusal(
        403,
        "Resetting the whole server (scope=server) needs a start key: this key was made by POST /__mock/tenants and resets its own tenant only (scope=tenant).",
        undefined,
        "start_key_required",
      );
    }
    api.reset();
  } else api.tenant(tenantId).reset();
  return { reset: true, scope: query.scope ?? "tenant" };
}

/**
 * `DELETE /__mock/tenants/{tenantId}`: an isolated tenant, by its own key or by a start key.
 * Another tenant a key may not delete is not found, like any other tenant's resource (no
 * existence leak); only a start tenant's own key learns that its tenant is never deleted.
 */
function deleteTenant(context: ControlContext) {
  const { api, tenantId, params } = context;
  const target = params["tenantId"]!;
  const record = api.state.tenants.get(target);
  const own = target === tenantId;
  if (record === undefined || (!own && (isolated(context) || record.isolated !== true))) return notFound("tenant", target);
  if (record.isolated !== true) {
    return new Refusal(
      403,
      "Your tenant is one the server was started with, not one POST /__mock/tenants made: it is never deleted (reset it with POST /__mock/reset).",
      undefined,
      "tenant_not_deletable",
    );
  }
  api.tenant(target).delete();
  return { deleted: true, tenantId: target };
}

/** `POST /__mock/tenants`: a new isolated tenant, unless the server holds its limit of them. */
function isolate({ api }: ControlContext) {
  try {
    const { tenantId, apiKey } = api.isolate();
    return { tenantId, apiKey };
  } catch (error) {
    if (!(error instanceof MockStateError)) throw error;
    return new Refusal(
      409,
      `The server holds as many tenants made by POST /__mock/tenants as it may (--max-tenants): delete one with DELETE /__mock/tenants/{tenantId} (or reset the server) first.`,
      undefined,
      "tenant_limit_reached",
    );
  }
}

/** The tenant routes, under `/__mock`. */
export const TENANT_ROUTES: readonly ControlRoute[] = [
  {
    method: "POST",
    path: "/__mock/reset",
    operationId: "resetMock",
    summary:
      "Reset your tenant to its start state (its fixtures again, its requests, faults, deliveries and inbox messages forgotten); with ?scope=server the whole mock, every tenant",
    description:
      "`scope=tenant` (the default) puts your tenant back to its start state: the data the fixtures give it (none for a tenant made by `POST /__mock/tenants`); its faults, requests, webhook events, deliveries and inbox messages are forgotten and its keys stay valid. Other tenants are not touched. `scope=server` resets the whole mock: every tenant back to the start, the tenants made by `POST /__mock/tenants` removed. Only a start key (one the server was started with, or another key of such a tenant) may do that: a key made by `POST /__mock/tenants` gets 403 `start_key_required`.",
    query: ControlResetQuery,
    response: ResetResult,
    refuses: { 403: "`scope=server` with a key made by `POST /__mock/tenants` (`start_key_required`): such a key resets its own tenant only." },
    announces: "self",
    run: reset,
  },
  {
    method: "GET",
    path: "/__mock/tenant",
    operationId: "getTenant",
    summary: "Your tenant: its ID, when it was made, and whether POST /__mock/tenants made it",
    description:
      "The tenant of your key. `isolated: true` for a tenant made by `POST /__mock/tenants`: its keys act on it alone (`POST /__mock/reset?scope=server` is refused) and it can be deleted; `false` for a tenant the server was started with, whose keys are start keys.",
    response: CallerTenantSchema,
    run: ({ api, tenantId }) => {
      const record = api.state.tenants.get(tenantId)!;
      return { tenantId, createdAt: record.createdAt, isolated: record.isolated === true };
    },
  },
  {
    method: "POST",
    path: "/__mock/tenants",
    operationId: "createIsolatedTenant",
    summary: "Create a new, empty tenant with a new random API key, for one test or CI job: its data, faults, requests and reset are its own",
    description:
      "Any valid key may make one. The new key reaches the new tenant only: its data, faults, request log, webhook deliveries and inbox messages are its own, and its reset leaves the others alone. The server holds at most `--max-tenants` of them at once (default 10,000); past that it answers 409 `tenant_limit_reached` until one is deleted with `DELETE /__mock/tenants/{tenantId}`. The key is a secret: keep it out of logs.",
    status: 201,
    response: IsolatedTenantSchema,
    refuses: { 409: "The server already holds `--max-tenants` tenants made by `POST /__mock/tenants` (`tenant_limit_reached`): delete one first." },
    run: isolate,
  },
  {
    method: "DELETE",
    path: "/__mock/tenants/{tenantId}",
    operationId: "deleteTenant",
    summary:
      "Delete a tenant made by POST /__mock/tenants, with its own key or a start key: its data, keys, faults, requests, deliveries and inbox messages",
    description:
      "Ends a tenant made by `POST /__mock/tenants`: its data and keys are gone (its key answers 401 from now on), with its faults, logged requests, webhook events, deliveries (attempts in flight are aborted) and inbox messages; it no longer counts against `--max-tenants`. Other tenants are not touched. Send the tenant's own key, or a start key; with a key made by `POST /__mock/tenants` another tenant is not found (404), like any other tenant's resource. A tenant the server was started with is never deleted: not found for other keys, 403 `tenant_not_deletable` for its own.",
    response: DeletedTenantSchema,
    refuses: {
      403: "Your own tenant, when the server was started with it: it is never deleted (`tenant_not_deletable`).",
      404: "No such tenant, or one your key may not delete: another tenant's, unless yours is a start key and it was made by `POST /__mock/tenants`.",
    },
    announces: "self",
    run: deleteTenant,
  },
];
