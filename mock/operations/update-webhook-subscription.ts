/**
 * `PATCH /v0/webhook_subscriptions/{subscription_id}` (spec 4.3): a partial update validated by
 * the shared schema; `updatedAt` moves only when a value changes.
 * @module
 */
import { toFieldErrors, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import { invalidFields, problem } from "../pipeline/reply.js";
import { timestamp } from "../state/store.js";
import { applySubscriptionUpdate, subscriptionView } from "../state/webhook-subscriptions.js";
import type { Operation, OperationBehaviour } from "./context.js";

/** Updates a webhook subscription: 200 with the whole subscription, or 400/404. */
export const run: Operation = async (context) => {
  const parsed = WebhookSubscriptionUpdate.safeParse(context.body);
  if (!parsed.success) return invalidFields(context.requestId, toFieldErrors(parsed.error.issues, context.body));
  const record = context.tenant.webhookSubscriptions.get(context.params["subscriptionId"] ?? "");
  if (record === undefined) return problem(context.requestId, "not_found", "No webhook subscription with this ID exists.");
  const waiting = context.delay();
  if (waiting !== undefined) await waiting;
  applySubscriptionUpdate(context.tenant, record, parsed.data, timestamp(context.store));
  return { status: 200, body: subscriptionView(record) };
};

/** The banner's example: a change that keeps the subscription delivering, so the steps after it still work. */
export const example: OperationBehaviour["example"] = {
  body: { events: ["page.version.published", "page.version.processed"] },
  note: 'here its events; {"active":false} would stop its deliveries',
};

/** A recording keeps the subscription as it was answered. */
export const record: OperationBehaviour["record"] = (book, { responseBody }) => book.subscription(responseBody);
