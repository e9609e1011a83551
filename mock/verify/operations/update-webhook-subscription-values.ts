/**
 * Contract rules of the values a subscription update takes (spec 2.4, 4.3, 6; docs/behaviour.md
 * "Field rules the spec leaves open" and "Update webhook subscription"): `url`, `events`,
 * `active`. The spec's rules refuse on the given subscription (a refusal of a missing one proves
 * nothing); the mock's decisions, checked before the resource, also run without one. A rule that
 * sends `events` to the given subscription needs it to have a list, which the restore can send back.
 * @module
 */

import { WEBHOOK_EVENT_KINDS } from "../../../src/schemas/events.js";
import { MAX_URL_LENGTH } from "../../../src/schemas/url.js";
import { expectEqual, expectFieldErrors, expectFieldPointers, expectRefused, expectStatus } from "../expect.js";
import { givenSubscription, patchSubscription, requireEventsList, setKnown, VERIFY_EVENTS, VERIFY_URLS } from "../inputs.js";
import type { ContractRule, Exchange, VerifyContext } from "../rule.js";
import { update } from "./update-webhook-subscription.js";

const operation = "updateWebhookSubscription" as const;

/** A URL of exactly `length` characters below the rules' own. */
const urlOfLength = (length: number) => `${VERIFY_URLS[0]}&pad=`.padEnd(length, "x");

/** Sends `json` to the given subscription, or (without one) to a missing one: its body is checked first either way. */
async function patchAny(context: VerifyContext, json: unknown): Promise<Exchange> {
  if (context.subscription !== undefined && json !== null && typeof json === "object" && "events" in json)
    requireEventsList(await givenSubscription(context));
  return context.send("PATCH", update.path(context), { json });
}

/** URLs the documented rule refuses, each for its own reason. */
const INVALID_URLS: readonly string[] = [
  "ftp://hooks.example.com/prospectkit-verify",
  "javascript:alert(1)",
  "http:hooks.example.com/prospectkit-verify",
  "https://hooks.example.com/prospectkit verify",
  " https://hooks.example.com/prospectkit-verify",
  "https://hooks.example.com/prospectkit-verify\t",
  "https://hooks.example.com\\prospectkit-verify",
  "https://hooks.example.com/prospectkit-verify%zz",
  "https://bücher.example/prospectkit-verify",
  "https://hooks.example.com/{prospectkit-verify}",
  "https://prospectkit:verify@hooks.example.com/",
  "https://hooks.example.com:65536/prospectkit-verify",
  "https://[::1/prospectkit-verify",
  "https://hooks.example.1/prospectkit-verify",
  urlOfLength(MAX_URL_LENGTH + 1),
];

/** URLs the rule accepts, each echoed exactly as sent (case, a default port, dot segments, an escape, a fragment; the longest). */
const EXACT_URLS: readonly string[] = ["HTTPS://Hooks.Example.COM:443/prospectkit-verify/./a/../b?check=%7e&x=1#frag", urlOfLength(MAX_URL_LENGTH)];

/** The rules. */
export const rules: readonly ContractRule[] = [
  {
    id: "subscription.url-exact",
    operation,
    class: "mock decision",
    title: `a url is stored and echoed exactly as sent, never normalized (case, default port, dot segments, escapes, fragment; ${MAX_URL_LENGTH} characters)`,
    source: "docs/behaviour.md, Field rules the spec leaves open",
    needs: ["subscription"],
    async run(context) {
      await setKnown(context, { url: VERIFY_URLS[0], active: false, events: VERIFY_EVENTS[0] });
      for (const url of EXACT_URLS) {
        const exchange = await patchSubscription(context, { url });
        expectStatus(exchange, 200);
        expectEqual(exchange.answer.body.url, url, "url exactly as sent", exchange);
      }
    },
  },
  {
    id: "subscription.url-invalid",
    operation,
    class: "mock decision",
    title: `a url outside the documented rule is 400 at /url: another scheme, no host, whitespace or a control character anywhere, a backslash, a bad escape, non-ASCII, a character RFC 3986 allows nowhere, a user name, a port past 65535, an unclosed [, a numeric last label, over ${MAX_URL_LENGTH} characters`,
    source: "docs/behaviour.md, Field rules the spec leaves open",
    async run(context) {
      for (const url of INVALID_URLS) expectFieldPointers(await patchAny(context, { url }), ["/url"]);
    },
  },
  {
    id: "subscription.url-type",
    operation,
    class: "spec",
    title: "url is a URI string: a number, an empty string or text that is not a URI is refused",
    source: "spec 2.4, 4.3",
    needs: ["subscription"],
    async run(context) {
      await givenSubscription(context);
      for (const url of [1, "", "prospectkit verify"]) expectRefused(await patchSubscription(context, { url }));
    },
  },
  {
    id: "subscription.active-type",
    operation,
    class: "spec",
    title: 'active is a boolean: "true", 1 and null are refused',
    source: "spec 2.4, 4.3",
    needs: ["subscription"],
    async run(context) {
      await givenSubscription(context);
      for (const active of ["true", 1, null]) expectRefused(await patchSubscription(context, { active }));
    },
  },
  {
    id: "subscription.events-closed-list",
    operation,
    class: "spec",
    title: "an event kind outside the closed list (an unknown kind, a known one in another case) is refused",
    source: "spec 2.4, 4.3, 6",
    needs: ["subscription"],
    async run(context) {
      for (const events of [["page.deleted"], ["PAGE.VERSION.CREATED"]]) expectRefused(await patchAny(context, { events }));
    },
  },
  {
    id: "subscription.events-members",
    operation,
    class: "spec",
    title: "every kind of the closed list is accepted, and the answer lists them as sent",
    source: "spec 2.4, 4.3, 6",
    needs: ["subscription"],
    async run(context) {
      requireEventsList(await givenSubscription(context));
      const exchange = await patchSubscription(context, { events: WEBHOOK_EVENT_KINDS });
      expectStatus(exchange, 200);
      expectEqual(exchange.answer.body.events, WEBHOOK_EVENT_KINDS, "events", exchange);
    },
  },
  {
    id: "subscription.events-empty",
    operation,
    class: "mock decision",
    title: "an empty events array is 400 events_empty at /events (never stored as events: [])",
    source: "docs/behaviour.md, Field rules the spec leaves open",
    async run(context) {
      expectFieldErrors(await patchAny(context, { events: [] }), [["/events", "events_empty"]]);
    },
  },
  {
    id: "subscription.events-null",
    operation,
    class: "mock decision",
    title: "events: null is refused in a request (400 at /events): null means every kind in an answer only",
    source: "docs/behaviour.md, Update webhook subscription",
    async run(context) {
      expectFieldPointers(await patchAny(context, { events: null }), ["/events"]);
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
      requireEventsList(await givenSubscription(context));
      const exchange = await patchSubscription(context, {
        events: ["form.submitted", "page.version.published", "form.submitted", "page.version.created"],
      });
      expectStatus(exchange, 200);
      expectEqual(exchange.answer.body.events, ["form.submitted", "page.version.published", "page.version.created"], "events", exchange);
    },
  },
];
