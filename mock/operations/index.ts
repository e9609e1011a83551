/**
 * The API's behaviour: what the mock does for each operation of the table, by name (a row without
 * its behaviour, or a behaviour without its row, fails `tsc`), and the API's part of the route
 * table made from the rows. The request is routed, authenticated and its body validated by the
 * row's schema before an operation runs: it reads the parsed input.
 * @module
 */
import { REPLAYED_HEADER } from "../../src/headers.js";
import type { OperationRow } from "../../src/operation-row.js";
import { OPERATION_TABLE, type OperationId, type PerOperation } from "../../src/operation-table.js";
import type { ProspectLogCreateParsed, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import { problem } from "../pipeline/reply.js";
import type { Route } from "../pipeline/route.js";
import { findPage, pageView } from "../state/pages.js";
import { claimValidLog } from "../state/prospect-logs.js";
import { type Store, timestamp } from "../state/store.js";
import { applySubscriptionUpdate, subscriptionView } from "../state/webhook-subscriptions.js";
import type { MockOperation, OperationBehaviour } from "./context.js";

export type { MockOperation } from "./context.js";

/** Each operation's behaviour, in the table's order. */
const BEHAVIOURS: PerOperation<OperationBehaviour> = {
  /** Spec 4.1: idempotency and prospect resolution are the state's `claimValidLog`; 201, 409 or 422. */
  createProspectLog: {
    async run(context) {
      const claimed = claimValidLog(context.store, context.tenant, context.body as ProspectLogCreateParsed);
      switch (claimed.kind) {
        case "replay":
          return { status: 201, body: claimed.result, headers: { [REPLAYED_HEADER]: "true" } };
        case "in-progress":
          return problem(
            context.requestId,
            "idempotency_request_in_progress",
            "A request with this idempotency key is still in progress; retry once it has completed.",
          );
        case "reused":
          return problem(
            context.requestId,
            "idempotency_key_reused",
            "This idempotency key was already used with a different request body; use a new key for a new request.",
          );
      }
      try {
        const waiting = context.delay();
        if (waiting !== undefined) await waiting;
        return { status: 201, body: claimed.write() };
      } finally {
        claimed.release();
      }
    },
    // The banner's example: a sign-up from a CRM, naming the prospect by email.
    example: {
      body: { source: "crm", payload: { event: "signed_up", plan: "team" }, email: "ada@example.com", name: "Ada Lovelace" },
    },
    // A recording keeps the prospect an entry went to, with the identifiers the request sent.
    record: (book, { requestBody, responseBody }) => book.prospect(responseBody, requestBody),
  },

  /** Spec 4.2: a page of another group or another tenant answers exactly like a missing one (404). */
  getPage: {
    run(context) {
      const { pageGroupId = "", pageId = "" } = context.params;
      const page = findPage(context.tenant, pageGroupId, pageId);
      if (page === undefined) return problem(context.requestId, "not_found", "No page with this ID exists in this page group.");
      return { status: 200, body: pageView(context.tenant, page) };
    },
    record: (book, { responseBody }) => book.page(responseBody),
  },

  /** Spec 4.3: a partial update; `updatedAt` moves only when a value changes; 404 for an unknown ID. */
  updateWebhookSubscription: {
    async run(context) {
      const record = context.tenant.webhookSubscriptions.get(context.params["subscriptionId"] ?? "");
      if (record === undefined) return problem(context.requestId, "not_found", "No webhook subscription with this ID exists.");
      const waiting = context.delay();
      if (waiting !== undefined) await waiting;
      applySubscriptionUpdate(context.tenant, record, context.body as WebhookSubscriptionUpdate, timestamp(context.store));
      return { status: 200, body: subscriptionView(record) };
    },
    // A change that keeps the subscription delivering, so the banner's steps after it still work.
    example: {
      body: { events: ["page.version.published", "page.version.processed"] },
      note: 'here its events; {"active":false} would stop its deliveries',
    },
    record: (book, { responseBody }) => book.subscription(responseBody),
  },
};

/** Every operation of the API with its behaviour, in the table's order: what a mock serves unless its `operations` option says otherwise. */
export const MOCK_OPERATIONS: readonly MockOperation[] = /* @__PURE__ */ OPERATION_TABLE.map((row) => ({ row, ...BEHAVIOURS[row.name] }));

/**
 * What a route of the API takes from its row of the operation table: method, path template and
 * parameters, its body's schema, the area and the operation (the mock's routes and the validating
 * proxy's alike).
 * @param row - the row
 */
export function operationRoute(row: OperationRow): Pick<Route, "method" | "path" | "params" | "area" | "operation" | "body"> {
  // A row of the table is named by an OperationId; a test's own row by a name of its own.
  return {
    method: row.method,
    path: row.path,
    params: row.params,
    area: "api",
    operation: row.name as OperationId,
    ...(row.request !== undefined && { body: row.request.schema }),
  };
}

/**
 * The API's routes: method, path, parameters and body schema from each operation's row (the body
 * step validates the body once, with the row's schema), the operation's behaviour.
 * @param store - the current state
 * @param operations - the operations served (every operation of the API unless a test gives its own)
 */
export function apiRoutes(store: () => Store, operations: readonly MockOperation[] = MOCK_OPERATIONS): Route[] {
  return operations.map(
    ({ row, run }): Route => ({
      ...operationRoute(row),
      // The handler checked the key first: a route of the API always has its caller's tenant.
      run: (context) => run({ ...context, store: store(), tenant: context.tenant! }),
    }),
  );
}
