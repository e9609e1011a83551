/**
 * The control API's webhook routes: the events and deliveries of the caller's tenant, a
 * redelivery, the run of every pending delivery now, form events (which no API operation emits),
 * a subscription's signing secret and its rotation, and the built-in inbox. Everything goes
 * through `api.webhooks` and `api.state`: the same engine that delivers in-process.
 * @module
 */
import { type ControlContext, type ControlRoute, notFound, Refusal } from "./route.js";
import {
  ControlDeliveryQuery,
  ControlFormEvent,
  DeliveryAttemptSchema,
  DeliverySchema,
  InboxMessageSchema,
  InboxVerificationSchema,
  listOf,
  SubscriptionSecretSchema,
  WebhookEventRecordSchema,
} from "./schemas.js";

/** The secrets of a subscription of the caller's tenant, as `GET …/secret` shows them. */
function secretsOf({ api, tenantId }: ControlContext, id: string) {
  const subscription = api.state.webhookSubscriptions.get(id, { tenantId });
  if (subscription === undefined) return notFound("webhook subscription", id);
  const signing = api.state.webhookSubscriptions.signingSecrets(id, { tenantId }) ?? [];
  const previous = signing.length > 1 ? (subscription.previousSecret ?? null) : null;
  return { id, secret: subscription.secret, previousSecret: previous };
}

/** The inbox's answer to a sender: 200 when a subscription's secret verifies the request, else a 400 saying why. */
async function receive({ inbox, params, request, body }: ControlContext) {
  const name = params["name"]!;
  const results = await inbox.receive(name, request.headers, body as Uint8Array);
  if (results.length === 0) return new Refusal(404, `No webhook subscription points at the inbox ${JSON.stringify(name)}.`);
  const [first] = results;
  return results.find((result) => result.verified) ?? new Refusal(400, `The webhook did not verify (${first!.code}): ${first!.message}`);
}

/** The webhook routes, under `/__mock`. */
export const WEBHOOK_ROUTES: readonly ControlRoute[] = [
  {
    method: "GET",
    path: "/__mock/webhook_events",
    operationId: "listWebhookEvents",
    summary: "List the webhook events of your tenant, oldest first (also those no subscription received)",
    response: listOf(WebhookEventRecordSchema),
    run: ({ api, tenantId }) => ({ data: api.webhooks.events().flatMap((entry) => (entry.tenantId === tenantId ? [entry.event] : [])) }),
  },
  {
    method: "POST",
    path: "/__mock/webhook_events",
    operationId: "emitFormEvent",
    summary: "Emit a form event (form.submitted, form.enriched, form.enrichment_failed) with a JSON data object",
    body: ControlFormEvent,
    status: 201,
    response: WebhookEventRecordSchema,
    run: ({ api, tenantId, body }) => api.state.forms.emit({ ...body, tenantId }),
  },
  {
    method: "POST",
    path: "/__mock/webhook_events/{eventId}/redeliver",
    operationId: "redeliverWebhookEvent",
    summary: "Send an event again, now, to each subscription it went to: same webhook-id, new timestamp and signature",
    response: listOf(DeliveryAttemptSchema),
    async run({ api, tenantId, params }) {
      const id = params["eventId"]!;
      if (!api.webhooks.events().some((entry) => entry.event.id === id && entry.tenantId === tenantId)) return notFound("webhook event", id);
      return { data: await api.webhooks.redeliver(id) };
    },
  },
  {
    method: "GET",
    path: "/__mock/webhook_deliveries",
    operationId: "listWebhookDeliveries",
    summary: "List the webhook deliveries of your tenant with every attempt, oldest first",
    query: ControlDeliveryQuery,
    response: listOf(DeliverySchema),
    run: ({ api, tenantId, query }) => ({
      data: api.webhooks
        .list()
        .filter(
          (delivery) =>
            delivery.tenantId === tenantId &&
            (query.eventId === undefined || delivery.eventId === query.eventId) &&
            (query.subscriptionId === undefined || delivery.subscriptionId === query.subscriptionId) &&
            (query.status === undefined || delivery.status === query.status),
        ),
    }),
  },
  {
    method: "POST",
    path: "/__mock/webhook_deliveries/run",
    operationId: "runWebhookDeliveries",
    summary: "Make the next attempt of every pending delivery of your tenant now, without waiting for the schedule",
    response: listOf(DeliveryAttemptSchema),
    run: async ({ api, tenantId }) => ({ data: await api.webhooks.runDue({ all: true, tenantId }) }),
  },
  {
    method: "GET",
    path: "/__mock/webhook_subscriptions/{subscriptionId}/secret",
    operationId: "getWebhookSubscriptionSecret",
    summary:
      "The whsec_ secret that signs a subscription's deliveries (listings leave it out); after a rotation also the previous one while it still signs",
    response: SubscriptionSecretSchema,
    run: (context) => secretsOf(context, context.params["subscriptionId"]!),
  },
  {
    method: "POST",
    path: "/__mock/webhook_subscriptions/{subscriptionId}/secret/rotate",
    operationId: "rotateWebhookSecret",
    summary: "Give a subscription a new signing secret; the previous one keeps signing beside it for 24 hours",
    response: SubscriptionSecretSchema,
    run(context) {
      const { api, tenantId, params } = context;
      const id = params["subscriptionId"]!;
      if (api.state.webhookSubscriptions.get(id, { tenantId }) === undefined) return notFound("webhook subscription", id);
      api.state.webhookSubscriptions.rotateSecret(id, { tenantId });
      return secretsOf(context, id);
    },
  },
  {
    method: "POST",
    path: "/__mock/inbox/{name}",
    operationId: "receiveWebhook",
    summary: "The built-in receiver: verifies a delivery with the secret of the subscription pointing here, and keeps it (no API key)",
    public: true,
    body: "raw",
    announces: "all",
    response: InboxVerificationSchema,
    run: receive,
  },
  {
    method: "GET",
    path: "/__mock/inbox/{name}",
    operationId: "listInbox",
    summary: "List what the inbox received for your tenant (the latest 100), oldest first, with each verification result",
    response: listOf(InboxMessageSchema),
    run: ({ inbox, tenantId, params }) => ({ data: inbox.list(tenantId, params["name"]!) }),
  },
];
