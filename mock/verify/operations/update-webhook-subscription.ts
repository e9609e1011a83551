/**
 * Contract rules of `PATCH /v0/webhook_subscriptions/{subscription_id}` as an update (spec 2.4,
 * 4.3; docs/behaviour.md "Update webhook subscription"): its result, partial updates, no-ops and
 * `updatedAt`, refusals that change nothing, and fields a PATCH refuses. A rule that changes the
 * subscription first sets values it knows (inputs.ts, `setKnown`) and judges every later answer
 * against them, never against a reading it has not proven.
 * @module
 */

import { WEBHOOK_EVENT_KINDS } from "../../../src/schemas/events.js";
import { expectContract, expectEqual, expectFieldErrors, expectProblem, expectRefused, expectStatus, withoutRequestId } from "../expect.js";
import { expectValues, firstRead, givenSubscription, patchSubscription, setKnown, subscriptionPath, VERIFY_EVENTS, VERIFY_URLS } from "../inputs.js";
import { type ContractRule, type Exchange, expectThat } from "../rule.js";
import { MISSING, pathOf, ROW, type Sample, type SampleInput } from "../rules/samples.js";

const operation = "updateWebhookSubscription" as const;
const source = "docs/behaviour.md, Update webhook subscription";
/** The sample request of the rules that hold for every operation: the subscription given (`--subscription`), else one no deployment has; an empty update. */
export const sample: SampleInput = {
  path: (context) => pathOf(ROW.updateWebhookSubscription, () => context.subscription ?? MISSING.subscriptionId),
  missingPath: () => pathOf(ROW.updateWebhookSubscription, () => MISSING.subscriptionId),
  body: {},
  needs: ["subscription"],
  // The subscription given, read first (a 404 is an input problem).
  existing: async (context) => (await givenSubscription(context), subscriptionPath(context.subscription!)),
};
/** The operation's sample with its row. */
export const update: Sample = { route: ROW.updateWebhookSubscription, ...sample };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The answer is a WebhookSubscription of spec 2.4 for the subscription asked, its events from the closed list (spec 6). */
function expectSubscription(exchange: Exchange, id: string): void {
  expectContract(exchange, operation);
  expectEqual(exchange.answer.body.id, id, "id (the subscription asked)", exchange);
  const { events } = exchange.answer.body;
  const outside = events === null ? [] : (events as string[]).filter((kind) => !(WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind));
  expectThat(outside.length === 0, `expected events from the closed list of spec 6, got ${outside.join(", ")}`, exchange);
}

/** The rules. */
export const rules: readonly ContractRule[] = [
  {
    id: "subscription.result",
    operation,
    class: "spec",
    title:
      "an update answers 200 with the WebhookSubscription (every field of spec 2.4, events from the closed list): the first read (PATCH {}) and a write",
    source: "spec 2.4, 4.3, 6, 7",
    needs: ["subscription"],
    async run(context) {
      const { exchange } = await firstRead(context);
      if (exchange.answer.status !== 404) expectSubscription(exchange, context.subscription!);
      const { exchange: set } = await setKnown(context, { url: VERIFY_URLS[0], active: false, events: VERIFY_EVENTS[0] });
      expectSubscription(set, context.subscription!);
    },
  },
  {
    id: "subscription.noop",
    operation,
    class: "mock decision",
    title: "{} is a valid no-op: it answers the subscription exactly as the last write left it, updatedAt included",
    source,
    needs: ["subscription"],
    async run(context) {
      const { exchange: set } = await setKnown(context, { url: VERIFY_URLS[0], active: false, events: VERIFY_EVENTS[0] });
      const noop = await patchSubscription(context, {});
      expectEqual(noop.answer.body, set.answer.body, "the subscription as set", noop);
    },
  },
  {
    id: "subscription.partial",
    operation,
    class: "mock decision",
    title: "a partial update: with known values set, changing url, then events, then active keeps each field not sent",
    source,
    needs: ["subscription"],
    async run(context) {
      const { values } = await setKnown(context, { url: VERIFY_URLS[0], active: false, events: VERIFY_EVENTS[0] });
      const url = { ...values, url: VERIFY_URLS[1] };
      expectValues(await patchSubscription(context, { url: url.url }), url, "url changed, events and active kept");
      let events = url;
      if (values.events !== null) {
        events = { ...url, events: VERIFY_EVENTS[1] };
        expectValues(await patchSubscription(context, { events: events.events }), events, "events changed, url and active kept");
      }
      const active = { ...events, active: true };
      expectValues(await patchSubscription(context, { active: true }), active, "active changed, url and events kept");
    },
  },
  {
    id: "subscription.updated-at",
    operation,
    class: "mock decision",
    title:
      "updatedAt moves only when a value changes: sending the current values keeps it and createdAt; a change (a new url, the same events in another order) moves it later",
    source,
    needs: ["subscription"],
    async run(context) {
      const { values, exchange: set } = await setKnown(context, { url: VERIFY_URLS[0], active: false, events: VERIFY_EVENTS[0] });
      const { createdAt, updatedAt } = set.answer.body;
      await sleep(5); // a millisecond clock has moved: an updatedAt that follows the clock shows it
      const same = await patchSubscription(context, {
        url: values.url,
        active: values.active,
        ...(values.events !== null && { events: values.events }),
      });
      expectValues(same, values, "the values as set");
      expectEqual([same.answer.body.createdAt, same.answer.body.updatedAt], [createdAt, updatedAt], "createdAt and updatedAt unchanged", same);
      let previous = updatedAt;
      const changes: unknown[] = [{ url: VERIFY_URLS[1] }, ...(values.events === null ? [] : [{ events: [...values.events].reverse() }])];
      for (const change of changes) {
        await sleep(5); // a millisecond clock has moved
        const changed = await patchSubscription(context, change);
        expectStatus(changed, 200);
        const moved = changed.answer.body.updatedAt;
        expectThat(typeof moved === "string" && moved > previous, `expected updatedAt later than ${previous} after a change, got ${moved}`, changed);
        expectEqual(changed.answer.body.createdAt, createdAt, "createdAt unchanged", changed);
        previous = moved;
      }
    },
  },
  {
    id: "subscription.refused-changes-nothing",
    operation,
    class: "mock decision",
    title: "a refused update changes nothing: a valid active sent beside an invalid url, or beside an empty events list, is not applied",
    source: "docs/behaviour.md, The mock: Nothing changes on a rejected request",
    needs: ["subscription"],
    async run(context) {
      const { values } = await setKnown(context, { url: VERIFY_URLS[0], active: false, events: VERIFY_EVENTS[0] });
      expectRefused(await patchSubscription(context, { active: true, url: "ftp://hooks.example.com/prospectkit-verify" }));
      if (values.events !== null) expectRefused(await patchSubscription(context, { active: true, events: [] }));
      expectValues(await patchSubscription(context, { url: values.url }), values, "the values as set before the refused updates");
    },
  },
  {
    id: "subscription.unknown-fields",
    operation,
    class: "mock decision",
    title: "a PATCH refuses every field but url, events and active: id, createdAt, updatedAt, secret and a typo are each 400 unknown_field",
    source: "docs/behaviour.md, Update webhook subscription; Request bodies are strict",
    async run(context) {
      const body = { id: "x", createdAt: "2024-01-01T00:00:00.000Z", updatedAt: "2024-01-01T00:00:00.000Z", secret: "whsec_x", activ: false };
      const pointers = Object.keys(body).map((field) => [`/${field}`, "unknown_field"] as const);
      expectFieldErrors(await context.send("PATCH", update.path(context), { json: body }), pointers);
    },
  },
  {
    id: "subscription.no-secret",
    operation,
    class: "mock decision",
    title: "no answer about a subscription carries its signing secret (a secret member, or a whsec_ value)",
    source,
    needs: ["subscription"],
    async run(context) {
      await firstRead(context);
      const path = update.path(context);
      for (const exchange of context.exchanges().filter((entry) => entry.request.path === path))
        expectThat(!/"secret"\s*:|whsec_/.test(exchange.answer.text), "expected no signing secret in the answer", exchange);
    },
  },
  {
    id: "subscription.missing",
    operation,
    class: "mock decision",
    title: "an unknown subscription is 404 not_found, for a no-op and for a change",
    source,
    async run(context) {
      for (const json of [{}, { active: false }]) expectProblem(await context.send("PATCH", update.missingPath(context), { json }), 404, "not_found");
    },
  },
  {
    id: "subscription.other-tenant",
    operation,
    class: "mock decision",
    title: "another tenant's subscription answers exactly like a missing one: 404 not_found, never 403",
    source: "docs/behaviour.md, Authentication and tenancy",
    needs: ["subscription", "otherTenantKey"],
    async run(context) {
      const other = await patchSubscription(context, {}, { key: "other-tenant" });
      expectProblem(other, 404, "not_found");
      const missing = await context.send("PATCH", update.missingPath(context), { key: "other-tenant", json: {} });
      expectEqual(
        withoutRequestId(other.answer.body),
        withoutRequestId(missing.answer.body),
        "the body a missing subscription gets (requestId aside)",
        other,
      );
    },
  },
];
