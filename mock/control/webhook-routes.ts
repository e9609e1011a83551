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

/**
 * The inbox's answer to a sender: 200 when a subscription's secret verifies the request, else a
 * 400 saying why. Each tenant that kept the message, and only it, hears of the change.
 */
async function receive({ api, inbox, params, request, body }: ControlContext) {
  const name = params["name"]!;
  const results = await inbox.receive(name, request.headers, body as Uint8Array);
  for (const { tenantId } of results) api.changes.announce(tenantId, { kind: "state" });
  if (results.length === 0) return new Refusal(404, `No webhook subscription points at the inbox ${JSON.stringify(name)}.`);
  const [first] = results;
  const verified = results.find((result) => result.verified);
  if (verified === undefined) return new Refusal(400, `The webhook did not verify (${first!.code}): ${first!.message}`);
  const { tenantId: _tenant, ...verification } = verified;
  return verification;
}

/** The webhook routes, under `/__mock`. */
export const WEBHOOK_ROUTES: readonly ControlRoute[] = [
  {
    method: "GET",
    path: "/__mock/webhook_events",
    operationId: "listWebhookEvents",
    summary: "List the webhook events of your tenant, oldest first (also those no subscription received)",
    description: "Every webhook event of your tenant kept (its latest 10,000), oldest first, also those no subscription wanted.",
    response: listOf(WebhookEventRecordSchema),
    run: ({ api, tenantId }) => ({ data: api.webhooks.events({ tenantId }).map((entry) => entry.event) }),
  },
  {
    method: "POST",
    path: "/__mock/webhook_events",
    operationId: "emitFormEvent",
    summary: "Emit a form event (form.submitted, form.enriched, form.enrichment_failed) with a JSON data object",
    description:
      "Emits a form event of your tenant (no API operation emits these) with your JSON `data`, delivered to the subscriptions that want its kind.",
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
    description:
      "Sends one of your tenant's events again, now, to each subscription it went to: the same `webhook-id` and body, a new timestamp and signature. Answers the attempts made.",
    refuses: { 404: "Your tenant has no such event." },
    response: listOf(DeliveryAttemptSchema),
    async run({ api, tenantId, params }) {
      const id = params["eventId"]!;
      if (!api.webhooks.events({ tenantId }).some((entry) => entry.event.id === id)) return notFound("webhook event", id);
      return { data: await api.webhooks.redeliver(id, { tenantId }) };
    },
  },
  {
    method: "GET",
    path: "/__mock/webhook_deliveries",
    operationId: "listWebhookDeliveries",
    summary: "List the webhook deliveries of your tenant with every attempt, oldest first",
    description:
      "Your tenant's webhook deliveries kept (its latest 10,000, apart from every other tenant's), oldest first, each with every attempt, its status and when the next attempt is due; the query narrows the list.",
    query: ControlDeliveryQuery,
    response: listOf(DeliverySchema),
    run: ({ api, tenantId, query }) => ({
      data: api.webhooks
        .list({ tenantId })
        .filter(
          (delivery) =>
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
    description:
      "Makes the next attempt of every pending delivery of your tenant now, without waiting for the retry schedule, and answers the attempts once they have ended.",
    response: listOf(DeliveryAttemptSchema),
    run: async ({ api, tenantId }) => ({ data: await api.webhooks.runDue({ all: true, tenantId }) }),
  },
  {
    method: "GET",
    path: "/__mock/webhook_subscriptions/{subscriptionId}/secret",
    operationId: "getWebhookSubscriptionSecret",
    summary:
      "The whsec_ secret that signs a subscription's deliveries (listings leave it out); after a rotation also the previous one while it still signs",
    description:
      "The `whsec_` secret that signs a subscription's deliveries; after a rotation also the previous one while it still signs (24 hours). Listings never show either.",
    refuses: { 404: "Your tenant has no such webhook subscription." },
    response: SubscriptionSecretSchema,
    run: (context) => secretsOf(context, context.params["subscriptionId"]!),
  },
  {
    method: "POST",
    path: "/__mock/webhook_subscriptions/{subscriptionId}/secret/rotate",
    operationId: "rotateWebhookSecret",
    summary: "Give a subscription a new signing secret; the previous one keeps signing beside it for 24 hours",
    description:
      "Gives a subscription a new signing secret; the previous one keeps signing beside it (two `v1,` signatures) for 24 hours, so a receiver can switch without losing a delivery.",
    refuses: { 404: "Your tenant has no such webhook subscription." },
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
    description:
      "The built-in receiver (no API key): verifies a delivery with the secrets of the subscriptions pointing at this name and keeps it for the tenant whose secret signed it; a request no secret verifies is kept, marked unverified, for each tenant pointing here, in a list bounded apart from the verified ones (so no number of unsigned requests pushes out a delivery that verified). Only those tenants hear of it.",
    refuses: {
      400: "No secret of a subscription pointing here verifies the request (it is kept, unverified).",
      404: "No webhook subscription points at this inbox name (nothing is kept).",
    },
    public: true,
    body: "raw",
    announces: "self",
    response: InboxVerificationSchema,
    run: receive,
  },
  {
    method: "GET",
    path: "/__mock/inbox/{name}",
    operationId: "listInbox",
    summary:
      "List what the inbox received for your tenant (the latest 100 verified, and 100 unverified), oldest first, with each verification result",
    description:
      "What the inbox received for your tenant under this name, oldest first: the latest 100 that verified and, apart from them, the latest 100 that did not, each with its headers, body and verification result.",
    response: listOf(InboxMessageSchema),
    run: ({ inbox, tenantId, params }) => ({ data: inbox.list(tenantId, params["name"]!) }),
  },
];
