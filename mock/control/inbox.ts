/**
 * The server's built-in webhook inbox: `POST /__mock/inbox/{name}` receives a delivery, verifies
 * it with the secrets of the subscriptions that point at it (Standard Webhooks, through the SDK's
 * own `verifyWebhook`), and keeps it, with the verification result, for the tenant whose secret
 * signed it; a request that no secret signed is kept, unverified, for every tenant whose
 * subscriptions point here. So a tenant never reads another tenant's deliveries, whatever inbox
 * name it points at. Each tenant keeps its verified and its unverified messages of a name in two
 * lists bounded apart, so no number of unsigned requests (which need no key) pushes out a
 * delivery that verified. The subscriptions pointing at a name come from the store's index, so a
 * receive costs the same whatever the number of tenants. A newcomer sees a whole signed cycle
 * without writing a receiver.
 * @module
 */
import type * as z from "zod/mini";
import type { WebhookEvent } from "../../src/schemas/index.js";
import { type VerifyWebhookOptions, verifyWebhook, WEBHOOK_HEADERS, WebhookVerificationError } from "../../src/webhooks/index.js";
import { formatTimestamp } from "../lib/clock.js";
import { INBOX_PATH, inboxNameOf } from "../state/inbox-index.js";
import type { MockState } from "../state/index.js";
import type { Store } from "../state/store.js";
import type { InboxMessageSchema, InboxVerificationSchema } from "./schemas.js";

export { INBOX_PATH };

/** How many messages each inbox keeps per tenant: the latest this many that verified, and apart from them the latest this many that did not. */
export const INBOX_CAPACITY = 100;

/** What the inbox found when it verified a request. */
export type InboxVerification = z.output<typeof InboxVerificationSchema>;

/** One request the inbox received (`id` increasing, unique within the server; `body` the raw body as text). */
export type InboxMessage = Omit<z.output<typeof InboxMessageSchema>, "event"> & { readonly event: WebhookEvent | null };

/** The subscriptions of one tenant that point at an inbox, with the secrets that sign their deliveries now. */
type Pointing = readonly { readonly id: string; readonly secrets: readonly string[] }[];

/** One tenant's messages of one inbox name, oldest first: those that verified, and those that did not. */
interface Kept {
  verified: InboxMessage[];
  unverified: InboxMessage[];
}

const UTF8 = new TextDecoder();

/**
 * Verifies with each secret in turn: one match is enough (a rotation signs with two).
 * @param check - `now` for the full check; `toleranceSeconds: Infinity` asks who signed it, not whether it is fresh
 */
async function verify(
  subscriptions: Pointing,
  headers: Headers,
  body: Uint8Array,
  check: Pick<VerifyWebhookOptions, "now" | "toleranceSeconds">,
): Promise<{ verification: InboxVerification; event: WebhookEvent | null }> {
  let failure: WebhookVerificationError | undefined;
  for (const subscription of subscriptions) {
    for (const secret of subscription.secrets) {
      try {
        const event = await verifyWebhook({ secret, headers, body, ...check });
        return { verification: { verified: true, subscriptionId: subscription.id, code: null, message: null }, event };
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        failure ??= error;
      }
    }
  }
  const subscriptionId = subscriptions[0]?.id ?? null;
  return { verification: { verified: false, subscriptionId, code: failure?.code ?? null, message: failure?.message ?? null }, event: null };
}

/** Appends a message to a list that keeps the latest {@link INBOX_CAPACITY}. */
function keep(list: InboxMessage[], message: InboxMessage): void {
  list.push(message);
  if (list.length > INBOX_CAPACITY) list.splice(0, list.length - INBOX_CAPACITY);
}

/**
 * Creates an inbox over a mock.
 * @param state - the mock's state, whose subscriptions hold the secrets
 * @param store - the current store, whose index names the subscriptions pointing at each inbox
 * @param now - the clock the verification's timestamp tolerance is checked against (the mock's)
 */
export function createInbox(state: MockState, store: () => Store, now: () => Date) {
  /** Tenant → inbox name → its messages. */
  const messages = new Map<string, Map<string, Kept>>();
  let counter = 0;

  /** The subscriptions of each tenant pointing at `name` now, looked up in the index (each one checked: the index may hold a stale entry). */
  function pointingAt(name: string): { tenantId: string; subscriptions: Pointing }[] {
    const { tenants, inboxIndex } = store();
    const found: { tenantId: string; subscriptions: Pointing }[] = [];
    for (const [tenantId, ids] of inboxIndex.pointingAt(name)) {
      const tenant = tenants.get(tenantId);
      if (tenant === undefined) continue;
      const subscriptions = [...ids].flatMap((id) => {
        const record = tenant.webhookSubscriptions.get(id);
        if (record === undefined || inboxNameOf(record.url) !== name) return [];
        return [{ id, secrets: state.webhookSubscriptions.signingSecrets(id, { tenantId }) ?? [] }];
      });
      if (subscriptions.length > 0) found.push({ tenantId, subscriptions });
    }
    return found;
  }

  function keptOf(tenantId: string, name: string): Kept {
    let names = messages.get(tenantId);
    if (names === undefined) messages.set(tenantId, (names = new Map()));
    let kept = names.get(name);
    if (kept === undefined) names.set(name, (kept = { verified: [], unverified: [] }));
    return kept;
  }

  return {
    /**
     * Receives one request for inbox `name`.
     * @returns the verification per tenant that kept it, with the tenant (empty: nobody points here, nothing kept)
     */
    async receive(name: string, headers: Headers, body: Uint8Array): Promise<(InboxVerification & { readonly tenantId: string })[]> {
      const at = now();
      const pointing = pointingAt(name);
      // A message belongs to the tenant whose secret signed it (however old it is); one that no
      // secret signed is shown, unverified, to every tenant pointing here: it holds nothing of theirs.
      const signers: typeof pointing = [];
      for (const tenant of pointing) {
        if ((await verify(tenant.subscriptions, headers, body, { toleranceSeconds: Number.POSITIVE_INFINITY })).verification.verified) {
          signers.push(tenant);
        }
      }
      const text = UTF8.decode(body);
      const results: (InboxVerification & { readonly tenantId: string })[] = [];
      for (const { tenantId, subscriptions } of signers.length > 0 ? signers : pointing) {
        const { verification, event } = await verify(subscriptions, headers, body, { now: at });
        const kept = keptOf(tenantId, name);
        keep(verification.verified ? kept.verified : kept.unverified, {
          id: ++counter,
          inbox: name,
          receivedAt: formatTimestamp(at.getTime()),
          headers: {
            "webhook-id": headers.get(WEBHOOK_HEADERS.id),
            "webhook-timestamp": headers.get(WEBHOOK_HEADERS.timestamp),
            "webhook-signature": headers.get(WEBHOOK_HEADERS.signature),
          },
          body: text,
          event,
          verification,
        });
        results.push({ ...verification, tenantId });
      }
      return results;
    },
    /** The messages a tenant received in inbox `name`, oldest first: those that verified and those that did not, interleaved as they came. */
    list(tenantId: string, name: string): InboxMessage[] {
      const kept = messages.get(tenantId)?.get(name);
      return kept === undefined ? [] : [...kept.verified, ...kept.unverified].sort((a, b) => a.id - b.id);
    },
    /** Forgets one tenant's messages (its reset or deletion). */
    forgetTenant: (tenantId: string) => void messages.delete(tenantId),
    /** Forgets every message. */
    clear: () => messages.clear(),
  };
}

/** The inbox's store. */
export type Inbox = ReturnType<typeof createInbox>;
