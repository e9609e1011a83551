/**
 * Webhook subscriptions: edited through the real updateWebhookSubscription operation (only
 * what changed is sent), with the API's field errors next to each field; created through the
 * control API; the signing secret shown only when asked for.
 */
import { html } from "htm/preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { call } from "../api.js";
import { Field, type FieldProps, Notice, useForm, when } from "../parts.js";
import type { SubscriptionListing, SubscriptionSecret } from "../types.js";

declare const __EVENT_KINDS__: readonly string[];
/** `PATCH` path of updateWebhookSubscription, from the operation table (`{subscription_id}` filled in below). */
declare const __UPDATE_SUBSCRIPTION_PATH__: string;

const enc = encodeURIComponent;

/** What {@link EventBoxes} shows: the kinds checked, and where a change goes. */
interface EventBoxesProps {
  readonly id: string;
  readonly legend: string;
  readonly value: readonly string[];
  readonly onValue: (kinds: string[]) => void;
  readonly error?: FieldProps["error"];
}

/** The event kinds as checkboxes, bound like a {@link Field}. */
function EventBoxes({ id, legend, value, onValue, error }: EventBoxesProps) {
  const toggle = (kind: string, on: boolean) => onValue(__EVENT_KINDS__.filter((k) => (k === kind ? on : value.includes(k))));
  return html`<fieldset class=${`events${error ? " invalid" : ""}`} aria-describedby=${error ? `${id}-error` : undefined}>
    <legend>${legend}</legend>
    ${__EVENT_KINDS__.map(
      (kind) => html`<label class="check"><input type="checkbox" name=${id} value=${kind} checked=${value.includes(kind)}
        onChange=${(e: Event) => toggle(kind, (e.currentTarget as HTMLInputElement).checked)} /> <code>${kind}</code></label>`,
    )}
    ${error && html`<p class="error" id=${`${id}-error`}>${error}</p>`}
  </fieldset>`;
}

function Secret({ id }: { id: string }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = async () => {
    const answer = await call<SubscriptionSecret>("GET", `/__mock/webhook_subscriptions/${enc(id)}/secret`);
    if (answer.ok) setSecret(String(answer.body?.secret ?? ""));
    else setError(answer.message);
  };
  return html`<div class="secret">
    ${
      secret === null
        ? html`<button type="button" onClick=${show} aria-label=${`Show signing secret of ${id}`}>Show signing secret</button>`
        : html`<span>Signing secret <code class="secret-value">${secret}</code></span> <button type="button" class="link" onClick=${() => setSecret(null)}>Hide</button>`
    }
    <${Notice} kind="error" text=${error} />
  </div>`;
}

function SubscriptionForm({ subscription }: { subscription: SubscriptionListing }) {
  const initial = {
    url: String(subscription.url ?? ""),
    events: (Array.isArray(subscription.events) ? subscription.events : []) as string[],
    active: Boolean(subscription.active),
  };
  const { state, run, values, setValues, bind, onSubmit } = useForm(initial);
  const id = `sub-${subscription.id}`;
  const errors = state.fieldErrors;
  // A change saved here or anywhere else (curl, the SDK) becomes the form's new starting point. Only a real
  // change: the effect also runs once after mount, and resetting then would lose what was typed meanwhile.
  const shownUpdate = useRef(subscription.updatedAt);
  useEffect(() => {
    if (shownUpdate.current === subscription.updatedAt) return;
    shownUpdate.current = subscription.updatedAt;
    setValues(initial);
  }, [subscription.updatedAt]);
  const submit = onSubmit(() => {
    const body: Record<string, unknown> = {};
    if (values.url !== subscription.url) body["url"] = values.url;
    if (values.events.join() !== initial.events.join()) body["events"] = values.events;
    if (values.active !== subscription.active) body["active"] = values.active;
    const path = __UPDATE_SUBSCRIPTION_PATH__.replace("{subscription_id}", enc(subscription.id));
    return run("PATCH", path, body, Object.keys(body).length === 0 ? "Nothing changed." : "Saved.");
  });
  return html`<form class="subscription" onSubmit=${submit} aria-labelledby=${`${id}-title`}>
    <header>
      <h3 id=${`${id}-title`}><code>${subscription.id}</code></h3>
      <span class=${`pill ${subscription.active ? "ok" : "off"}`}>${subscription.active ? "active" : "inactive"}</span>
    </header>
    <p class="meta">Updated ${when(subscription.updatedAt)} · ${subscription.events === null ? "receives every event kind" : `${initial.events.length} event kind${initial.events.length === 1 ? "" : "s"}`}</p>
    <${Field} id=${`${id}-url`} label="URL" type="text" inputmode="url" spellcheck="false" ...${bind("url")} />
    <${EventBoxes} id=${`${id}-events`} legend=${subscription.events === null ? "Events (none checked: every kind, as now)" : "Events"} ...${bind("events")} />
    <label class="check"><input type="checkbox" id=${`${id}-active`} checked=${values.active}
      onChange=${(e: Event) => bind("active").onValue((e.currentTarget as HTMLInputElement).checked)} /> Active</label>
    ${errors["/active"] && html`<p class="error">${errors["/active"]}</p>`}
    <div class="actions">
      <button type="submit" class="primary" disabled=${state.busy}>Save</button>
      <${Secret} id=${subscription.id} />
    </div>
    <${Notice} kind="error" text=${Object.keys(errors).length > 0 ? "The API refused the change: see the fields above." : state.error} />
    <${Notice} kind="ok" text=${state.done} />
  </form>`;
}

function NewSubscriptionForm() {
  const { state, run, values, setValues, bind, onSubmit } = useForm({ url: "", events: [] as string[] });
  const submit = onSubmit(async () => {
    const { url, events } = values;
    const answer = await run("POST", "/__mock/webhook_subscriptions", { url, ...(events.length > 0 && { events }) }, "Subscription created.");
    if (answer.ok) setValues({ url: "", events: [] });
  });
  return html`<details class="create"><summary id="new-sub-title">New subscription</summary><form class="inline-form" onSubmit=${submit} aria-labelledby="new-sub-title">
    <${Field} id="new-sub-url" label="URL" type="text" inputmode="url" spellcheck="false" placeholder="http://127.0.0.1:8080/webhooks" ...${bind("url")} />
    <${EventBoxes} id="new-sub-events" legend="Events (none checked: every kind)" ...${bind("events")} />
    <button type="submit" disabled=${state.busy}>Create subscription</button>
    <${Notice} kind="error" text=${state.error} />
  </form></details>`;
}

export function SubscriptionsSection({ subscriptions }: { subscriptions: readonly SubscriptionListing[] }) {
  return html`<section aria-labelledby="subscriptions-title" class="card">
    <h2 id="subscriptions-title">Webhook subscriptions <span class="count">${subscriptions.length}</span></h2>
    <div class="subscriptions">
      ${subscriptions.map((s) => html`<${SubscriptionForm} key=${s.id} subscription=${s} />`)}
    </div>
    <${NewSubscriptionForm} />
  </section>`;
}
