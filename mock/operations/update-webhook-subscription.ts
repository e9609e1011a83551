/**
 * `PATCH /v0/webhook_subscriptions/{subscription_id}` (spec 4.3): a partial update validated by
 * the shared schema; `updatedAt` moves only when a value changes.
 * @module
 */
import { toFieldErrors, WebhookSubscriptionUpdate } from "../../src/schemas/index.js";
import { andThen } from "../http/maybe-async.js";
import { problem } from "../http/reply.js";
import { timestamp } from "../state/store.js";
import { applySubscriptionUpdate, subscriptionView } from "../state/webhook-subscriptions.js";
import { bodyProblem, invalidBody, type Operation } from "./context.js";

/** Updates a webhook subscription: 200 with the whole subscription, or 400/404. */
export const updateWebhookSubscription: Operation = (context) =>
  andThen(context.readBody(), (body) => {
    if (!body.ok) return bodyProblem(context, body);
    const parsed = WebhookSubscriptionUpdate.safeParse(body.value);
    if (!parsed.success) return invalidBody(context, toFieldErrors(parsed.error.issues, body.value));
    const record = context.tenant.subscriptions.get(context.params["subscriptionId"] ?? "");
    if (record === undefined) {
      return problem(context.requestId, "not_found", "No webhook subscription with this ID exists.");
    }
    return {
      hold: () => undefined,
      commit() {
        applySubscriptionUpdate(record, parsed.data, timestamp(context.store));
        return { status: 200, body: subscriptionView(record) };
      },
    };
  });
