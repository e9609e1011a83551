/**
 * Webhooks: each event with its deliveries and every attempt (outcome, duration, the answer's
 * first bytes, the headers sent), redeliver and "run due now"; and the built-in inboxes its
 * subscriptions point at (`…/__mock/inbox/{name}`), with what each request carried and whether
 * its signature verified.
 */
import { html } from "htm/preact";
import { useState } from "preact/hooks";
import { signWebhook } from "../../../../src/webhooks/signature.js";
import { call, listOf } from "../api.js";
import { notDeliveredSentence } from "../not-delivered.js";
import { ActionButton, Json, Notice, useAction, when } from "../parts.js";
import type { Delivery, DeliveryAttempt, InboxMessage, Listing, SubscriptionListing, SubscriptionSecret, WebhookEventRecord } from "../types.js";

const enc = encodeURIComponent;

/** The inbox a subscription URL points at on this server, if it does. */
function inboxOf(url: unknown): string | null {
  const match = typeof url === "string" ? /\/__mock\/inbox\/([^/?#]+)$/.exec(url) : null;
  try {
    return match === null ? null : decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
}

/**
 * Reads what the view shows: the events, the deliveries and the inboxes the subscriptions point at.
 * @param subscriptions - the tenant's subscriptions, kept with the listings (they say why an event went nowhere)
 * @returns the listings, or null when the server has no webhook routes
 */
export async function loadWebhooks(subscriptions: readonly SubscriptionListing[]) {
  const names = [...new Set(subscriptions.map((s) => inboxOf(s?.url)).filter((name): name is string => name !== null))];
  const [events, deliveries, ...inboxes] = await Promise.all([
    call<Listing<WebhookEventRecord>>("GET", "/__mock/webhook_events"),
    call<Listing<Delivery>>("GET", "/__mock/webhook_deliveries"),
    ...names.map((name) => call<Listing<InboxMessage>>("GET", `/__mock/inbox/${enc(name)}`)),
  ]);
  if (!events.ok || !deliveries.ok) return null;
  const inboxMessages = names.map((name, index): [string, readonly InboxMessage[]] => [name, listOf(inboxes[index]!) ?? []]);
  return { subscriptions, events: listOf(events) ?? [], deliveries: listOf(deliveries) ?? [], inboxes: Object.fromEntries(inboxMessages) };
}

/** The webhook listings of one tenant. */
export type WebhooksData = NonNullable<Awaited<ReturnType<typeof loadWebhooks>>>;

function parse(text: unknown): unknown {
  try {
    return typeof text === "string" ? JSON.parse(text) : text;
  } catch {
    return text;
  }
}

/** The headers an attempt sent: its ID and time are known; the signature is recomputed on request with the subscription's secret. */
function AttemptHeaders({ delivery, attempt }: { delivery: Delivery; attempt: DeliveryAttempt }) {
  const [signatures, setSignatures] = useState<string | null>(null);
  const timestamp = Math.floor(Date.parse(attempt.at) / 1000);
  const sign = async () => {
    const answer = await call<SubscriptionSecret>("GET", `/__mock/webhook_subscriptions/${enc(delivery.subscriptionId)}/secret`);
    if (!answer.ok) return setSignatures(answer.message);
    const secrets = [answer.body?.secret, answer.body?.previousSecret?.secret].filter((s): s is string => typeof s === "string");
    try {
      const signed = await Promise.all(secrets.map((secret) => signWebhook({ secret, id: delivery.eventId, timestamp, body: delivery.body })));
      setSignatures(signed.join(" "));
    } catch {
      setSignatures("The subscription's secret could not sign this body.");
    }
  };
  return html`<dl class="headers">
    <div><dt>webhook-id</dt><dd><code>${delivery.eventId}</code></dd></div>
    <div><dt>webhook-timestamp</dt><dd><code>${Number.isFinite(timestamp) ? timestamp : "—"}</code></dd></div>
    <div><dt>webhook-signature</dt><dd>${
      signatures === null
        ? html`<button type="button" class="link" onClick=${sign} aria-label=${`Show signature of attempt ${attempt.attempt} to ${delivery.subscriptionId}`}>Show signature</button>`
        : html`<code class="signature">${signatures}</code>`
    }</dd></div>
  </dl>`;
}

function outcome(attempt: DeliveryAttempt): string {
  if (attempt.ok) return `${attempt.status} OK`;
  return attempt.status != null ? `${attempt.status} · ${attempt.reason ?? "failed"}` : String(attempt.reason ?? "failed");
}

function DeliveryCard({ delivery }: { delivery: Delivery }) {
  const attempts = Array.isArray(delivery.attempts) ? delivery.attempts : [];
  return html`<li class="delivery">
    <p class="delivery-head">
      <span class=${`pill ${delivery.status === "succeeded" ? "ok" : delivery.status === "pending" ? "created" : "off"}`}>${delivery.status}</span>
      <code>${delivery.subscriptionId}</code> <span class="url" title=${delivery.url}>${delivery.url}</span>
      ${delivery.nextAttemptAt && html`<span class="meta">next attempt ${when(delivery.nextAttemptAt)}</span>`}
    </p>
    ${
      attempts.length === 0
        ? html`<p class="meta">No attempt yet.</p>`
        : html`<ol class="attempts">${attempts.map(
            (attempt) => html`<li key=${`${attempt.attempt}-${attempt.at}`}><details>
            <summary>
              <span class="attempt-no">#${attempt.attempt}${attempt.redelivery ? " (redelivery)" : ""}</span>
              <span class=${`badge ${attempt.ok ? "ok" : "server"}`}>${outcome(attempt)}</span>
              <span class="duration">${typeof attempt.durationMs === "number" ? `${attempt.durationMs.toFixed(0)} ms` : ""}</span>
              <span class="time">${when(attempt.at)}</span>
            </summary>
            ${attempt.error && html`<p class="error">${attempt.error}</p>`}
            <${AttemptHeaders} delivery=${delivery} attempt=${attempt} />
            <h4>Answer (first 1 KiB)</h4>
            <pre class="excerpt" tabindex="0" aria-label=${`Answer to attempt ${attempt.attempt}`}>${attempt.response ?? "(nothing answered)"}</pre>
          </details></li>`,
          )}</ol>`
    }
  </li>`;
}

function EventCard({
  event,
  deliveries,
  subscriptions,
}: {
  event: WebhookEventRecord;
  deliveries: readonly Delivery[];
  subscriptions: readonly SubscriptionListing[];
}) {
  return html`<li class="event card">
    <header>
      <h3><code>${event.type}</code></h3>
      <span class="meta">${when(event.createdAt)} · <code>${event.id}</code></span>
    </header>
    <details><summary>Event body</summary><${Json} value=${event} label=${`Body of ${event.id}`} /></details>
    ${
      deliveries.length === 0
        ? html`<p class="meta not-delivered">${notDeliveredSentence(event, subscriptions)}</p>`
        : html`<ul class="plain deliveries">${deliveries.map((d) => html`<${DeliveryCard} key=${d.subscriptionId} delivery=${d} />`)}</ul>
          <${ActionButton} aria-label=${`Redeliver ${event.type} ${event.id}`} label="Redeliver" path=${`/__mock/webhook_events/${enc(event.id)}/redeliver`} />`
    }
  </li>`;
}

function Inbox({ name, messages }: { name: string; messages: readonly InboxMessage[] }) {
  return html`<section class="card" aria-labelledby=${`inbox-${name}`}>
    <h2 id=${`inbox-${name}`}>Inbox <code>${name}</code> <span class="count">${messages.length}</span></h2>
    <p class="note">The server's built-in receiver at <code>/__mock/inbox/${name}</code>: it checks each request's signature with the secret of the subscription that points here.</p>
    ${
      messages.length === 0
        ? html`<p class="empty">Nothing received yet.</p>`
        : html`<ol class="plain inbox" id=${`inbox-list-${name}`}>${[...messages].reverse().map(
            (message) => html`<li key=${message.id}><details>
            <summary>
              <span class=${`badge ${message.verification?.verified ? "ok" : "server"}`}>${message.verification?.verified ? "signature valid" : `invalid: ${message.verification?.code ?? "?"}`}</span>
              <code>${message.event?.type ?? "(unverified)"}</code>
              <span class="time">${when(message.receivedAt)}</span>
            </summary>
            <dl class="headers">
              ${Object.entries(message.headers ?? {}).map(([header, value]) => html`<div><dt>${header}</dt><dd><code class="signature">${String(value ?? "—")}</code></dd></div>`)}
            </dl>
            ${message.verification?.message && html`<p class="error">${message.verification.message}</p>`}
            <${Json} value=${parse(message.body)} label=${`Body received in message ${message.id}`} />
          </details></li>`,
          )}</ol>`
    }
  </section>`;
}

export function WebhooksView({ data }: { data: WebhooksData | null }) {
  const run = useAction();
  if (data === null) {
    return html`<section class="card" aria-labelledby="webhooks-title"><h2 id="webhooks-title">Webhooks</h2><p class="empty">This server lists no webhook events.</p></section>`;
  }
  const byEvent = new Map<string, Delivery[]>();
  for (const delivery of data.deliveries) byEvent.set(delivery?.eventId, [...(byEvent.get(delivery?.eventId) ?? []), delivery]);
  const pending = data.deliveries.filter((d) => d?.status === "pending").length;
  return html`<div class="webhooks-layout">
    <section aria-labelledby="webhooks-title">
      <div class="section-head">
        <h2 id="webhooks-title">Webhook events <span class="count">${data.events.length}</span></h2>
        <div class="actions">
          <span class="meta">${pending} deliver${pending === 1 ? "y" : "ies"} pending</span>
          <button type="button" class="primary" disabled=${run.state.busy} onClick=${() => run.run("POST", "/__mock/webhook_deliveries/run")}>Run due now</button>
        </div>
      </div>
      <${Notice} kind="error" text=${run.state.error} />
      ${
        data.events.length === 0
          ? html`<p class="empty card">No event yet: publishing a page version or sending a form event emits one.</p>`
          : html`<ol class="plain event-list">${[...data.events].reverse().map((event) => html`<${EventCard} key=${event.id} event=${event} deliveries=${byEvent.get(event.id) ?? []} subscriptions=${data.subscriptions} />`)}</ol>`
      }
    </section>
    <div class="inboxes">
      ${
        Object.keys(data.inboxes).length === 0
          ? html`<section class="card" aria-labelledby="no-inbox"><h2 id="no-inbox">Inbox</h2><p class="note">No subscription points at the built-in inbox. Point one at <code>${location.origin}/__mock/inbox/NAME</code> to see what it receives here.</p></section>`
          : Object.entries(data.inboxes).map(([name, messages]) => html`<${Inbox} key=${name} name=${name} messages=${messages} />`)
      }
    </div>
  </div>`;
}
