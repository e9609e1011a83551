/** Contract rules of `PATCH /v0/webhook_subscriptions/{subscription_id}` (spec 2.4, 4.3; docs/behaviour.md "Update webhook subscription"). */
import { fillPath, updateWebhookSubscriptionRoute } from "../../../src/operations.js";
import { expectContract, expectEqual, expectFieldErrors, expectProblem, expectRefused, expectStatus, RuleSkipped } from "../expect.js";
import type { ContractRule, Exchange, SendOptions, VerifyContext } from "../rule.js";

const operation = "updateWebhookSubscription" as const;

/** The path of a subscription, its ID URL-encoded. */
export const subscriptionPath = (id: string): string => fillPath(updateWebhookSubscriptionRoute, () => encodeURIComponent(id));

/** The URL the rules set (restored at the end). */
export const VERIFY_URL = "https://hooks.example.com/prospectkit-verify?check=1";

const patch = (context: VerifyContext, json: unknown, options: SendOptions = {}) =>
  context.send("PATCH", subscriptionPath(context.subscription!), { ...options, json });

/** The subscription as it is now (`PATCH {}`, a no-op). */
async function current(context: VerifyContext): Promise<Exchange> {
  const exchange = await patch(context, {});
  expectStatus(exchange, 200);
  return exchange;
}

/** Rules that change `events` run only on a subscription with an events list: `events: null` cannot be sent back. */
async function withEventsList(context: VerifyContext): Promise<void> {
  const { answer } = await current(context);
  if (!Array.isArray(answer.body.events))
    throw new RuleSkipped("the subscription's events are null (every kind), which no PATCH can restore: give --subscription one with an events list");
}

/** The rules. */
export const updateSubscriptionRules: readonly ContractRule[] = [
  {
    id: "subscription.result",
    operation,
    class: "spec",
    title: "setting active answers 200 with the WebhookSubscription (every field of spec 2.4), active as set",
    source: "spec 2.4, 4.3",
    needs: ["subscription"],
    async run(context) {
      const exchange = await patch(context, { active: false });
      expectStatus(exchange, 200);
      expectContract(exchange, operation);
      expectEqual(exchange.answer.body.active, false, "active", exchange);
    },
  },
  {
    id: "subscription.partial",
    operation,
    class: "mock decision",
    title: "omitted fields keep their value, and {} is a valid no-op",
    source: "docs/behaviour.md, Update webhook subscription",
    needs: ["subscription"],
    async run(context) {
      const before = await current(context);
      const after = await patch(context, { active: !before.answer.body.active });
      expectStatus(after, 200);
      const { url, events } = before.answer.body;
      expectEqual([after.answer.body.url, after.answer.body.events], [url, events], "url and events unchanged", after);
    },
  },
  {
    id: "subscription.url-exact",
    operation,
    class: "mock decision",
    title: "a url is stored and echoed exactly as sent",
    source: "docs/behaviour.md, Update webhook subscription",
    needs: ["subscription"],
    async run(context) {
      const exchange = await patch(context, { url: VERIFY_URL });
      expectStatus(exchange, 200);
      expectEqual(exchange.answer.body.url, VERIFY_URL, "url", exchange);
    },
  },
  {
    id: "subscription.url-invalid",
    operation,
    class: "mock decision",
    title: "a url that is not an absolute http(s) URL is 400 at /url",
    source: "docs/behaviour.md, Update webhook subscription",
    needs: ["subscription"],
    async run(context) {
      const exchange = await patch(context, { url: "ftp://hooks.example.com/prospectkit-verify" });
      expectProblem(exchange, 400, "invalid_request");
      expectEqual(
        (exchange.answer.body.errors ?? []).map((error: { pointer: string }) => error.pointer),
        ["/url"],
        "field error pointers",
        exchange,
      );
    },
  },
  {
    id: "subscription.events-closed-list",
    operation,
    class: "spec",
    title: "an event kind outside the closed list is refused",
    source: "spec 2.4, 4.3, 6",
    needs: ["subscription"],
    async run(context) {
      await withEventsList(context);
      expectRefused(await patch(context, { events: ["page.deleted"] }));
    },
  },
  {
    id: "subscription.events-empty",
    operation,
    class: "mock decision",
    title: "an empty events array is 400 events_empty at /events (never stored as events: [])",
    source: "docs/behaviour.md, Update webhook subscription",
    needs: ["subscription"],
    async run(context) {
      await withEventsList(context);
      expectFieldErrors(await patch(context, { events: [] }), [["/events", "events_empty"]]);
    },
  },
  {
    id: "subscription.events-deduplicated",
    operation,
    class: "mock decision",
    title: "duplicate event kinds are removed, keeping first-seen order",
    source: "docs/behaviour.md, Update webhook subscription",
    needs: ["subscription"],
    async run(context) {
      await withEventsList(context);
      const exchange = await patch(context, { events: ["form.submitted", "page.version.published", "form.submitted"] });
      expectStatus(exchange, 200);
      expectEqual(exchange.answer.body.events, ["form.submitted", "page.version.published"], "events", exchange);
    },
  },
  {
    id: "subscription.missing",
    operation,
    class: "mock decision",
    title: "an unknown subscription is 404 not_found",
    source: "docs/behaviour.md, Update webhook subscription",
    async run(context) {
      expectProblem(await context.send("PATCH", subscriptionPath("webhooksubscription_prospectkit_verify_missing"), { json: {} }), 404, "not_found");
    },
  },
  {
    id: "subscription.other-tenant",
    operation,
    class: "mock decision",
    title: "another tenant's subscription answers like a missing one: 404 not_found, never 403",
    source: "docs/behaviour.md, Authentication and tenancy",
    needs: ["subscription", "otherTenantKey"],
    async run(context) {
      expectProblem(await patch(context, {}, { key: "other-tenant" }), 404, "not_found");
    },
  },
];
