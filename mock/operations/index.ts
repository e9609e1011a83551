/**
 * The API's part of the route table: one route per row of the operation table
 * (`src/operations.ts`), each answered by its operation.
 * @module
 */
import { OPERATION_TABLE, type OperationId, type OperationRoute } from "../../src/operations.js";
import type { Route } from "../pipeline/route.js";
import type { Store } from "../state/store.js";
import type { Operation } from "./context.js";
import { createProspectLog } from "./create-prospect-log.js";
import { getPage } from "./get-page.js";
import { updateWebhookSubscription } from "./update-webhook-subscription.js";

/** Each operation by its ID. */
export const OPERATION_HANDLERS: Readonly<Record<OperationId, Operation>> = {
  createProspectLog,
  getPage,
  updateWebhookSubscription,
};

/**
 * What a route of the API takes from its row of the operation table: method, path template and
 * parameters, the area and the operation (the mock's routes and the validating proxy's alike).
 * @param row - the row
 */
export function operationRoute(
  row: OperationRoute & { readonly name: OperationId },
): Pick<Route, "method" | "path" | "params" | "area" | "operation"> {
  return { method: row.method, path: row.path, params: row.params, area: "api", operation: row.name };
}

/**
 * The API's routes: method, path and parameters from the operation table, a JSON body where the
 * row has a request schema (validated by the operation, as the state API does), the operation.
 * @param store - the current state
 */
export function apiRoutes(store: () => Store): Route[] {
  return OPERATION_TABLE.map(
    (row): Route => ({
      ...operationRoute(row),
      ...("request" in row && { body: "json" as const }),
      // The handler checked the key first: a route of the API always has its caller's tenant.
      run: (context) => OPERATION_HANDLERS[row.name]({ ...context, store: store(), tenant: context.tenant! }),
    }),
  );
}
