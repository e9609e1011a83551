/**
 * The server's built-in webhook inbox: `POST /__mock/inbox/{name}` receives a delivery, verifies
 * it with the secrets of the subscriptions that point at it (Standard Webhooks, through the SDK's
 * own `verifyWebhook`), and keeps it, with the verification result, for the tenant whose secret
 * signed it; a request that no secret signed is kept, unverified, for every tenant whose
 * subscriptions point here. So a tenant never reads another tenant's deliveries, whatever inbox
 * name it points at. A newcomer sees a whole signed cycle without writing a receiver.
 * @module
 */
import type * as z from "zod/mini";
import type { WebhookEvent } from "../../src/schemas/index.js";
import { type VerifyWebhookOptions, verifyWebhook, WEBHOOK_HEADERS, WebhookVerificationError } from "../../src/webhooks/index.js";
import { formatTimestamp } from "../lib/clock.js";
import type { MockState } from "../state/index.js";
import type { InboxMessageSchema, InboxVerificationSchema } from "./schemas.js";

/** Where the inbox lives: `POST {INBOX_PATH}/{name}`. */
export const INBOX_PATH = "/__mock/inbox";

/** How many messages each inbox keeps per tenant (the latest). */
export const INBOX_CAPACITY = 100;

/** What the inbox found when it verified a request. */
export type InboxVerification = z.output<typeof InboxVerificationSchema>;

/** One request the inbox received (`id` increasing, unique within the server; `body` the raw body as text). */
export type InboxMessage = Omit<z.output<typeof InboxMessageSchema>, "event"> & { readonly event: WebhookEvent | null };

/** The subscriptions of one tenant that point at an inbox, with the secrets that sign their deliveries now. */
type Pointing = readonly { readonly id: string; readonly secrets: readonly string[] }[];

const UTF8 = new TextDecoder();

/** Whether a subscription URL points at this server's inbox `name` (any host: the server may be reached by several names). */
function pointsAt(url: string, name: string): boolean {
  try {
    const path = new URL(url).pathname;
    return path.startsWith(`${INBOX_PATH}/`) && decodeURIComponent(path.slice(INBOX_PATH.length + 1)) === name;
  } catch {
    return false;
  }
}

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

/**
 * Creates an inbox over a mock.
 * @param state - the mock's state, whose subscriptions name the inboxes and hold the secrets
 * @param now - the clock the verification's timestamp tolerance is checked against (the mock's)
 */
export function createInbox(state: MockState, now: () => Date) {
  /** By tenant and inbox name. */
  const messages = new Map<string, InboxMessage[]>();
  const slot = (tenantId: string, name: string) => JSON.stringify([tenantId, name]);
  let counter = 0;

  return {
    /**
     * Receives one request for inbox `name`.
     * @returns the verification per tenant whose subscriptions point here (empty: nobody does, nothing kept)
     */
    async receive(name: string, headers: Headers, body: Uint8Array): Promise<InboxVerification[]> {
      const at = now();
      const pointing = state.tenants.list().flatMap(({ id: tenantId }) => {
        const subscriptions = state.webhookSubscriptions
          .list({ tenantId })
          .filter((subscription) => pointsAt(subscription.url, name))
          .map(({ id }) => ({ id, secrets: state.webhookSubscriptions.signingSecrets(id, { tenantId }) ?? [] }));
        return subscriptions.length === 0 ? [] : [{ tenantId, subscriptions }];
      });
      // A message belongs to the tenant whose secret signed it (however old it is); one that no
      // secret signed is shown, unverified, to every tenant pointing here: it holds nothing of theirs.
      const signers: typeof pointing = [];
      for (const tenant of pointing) {
        if ((await verify(tenant.subscriptions, headers, body, { toleranceSeconds: Number.POSITIVE_INFINITY })).verification.verified) {
          signers.push(tenant);
        }
      }
      const results: InboxVerification[] = [];
      for (const { tenantId, subscriptions } of signers.length > 0 ? signers : pointing) {
        const { verification, event } = await verify(subscriptions, headers, body, { now: at });
        const list = messages.get(slot(tenantId, name)) ?? [];
        messages.set(slot(tenantId, name), list);
        list.push({
          id: ++counter,
          inbox: name,
          receivedAt: formatTimestamp(at.getTime()),
          headers: {
            "webhook-id": headers.get(WEBHOOK_HEADERS.id),
            "webhook-timestamp": headers.get(WEBHOOK_HEADERS.timestamp),
            "webhook-signature": headers.get(WEBHOOK_HEADERS.signature),
          },
          body: UTF8.decode(body),
          event,
          verification,
        });
        if (list.length > INBOX_CAPACITY) list.splice(0, list.length - INBOX_CAPACITY);
        results.push(verification);
      }
      return results;
    },
    /** The messages a tenant received in inbox `name`, oldest first. */
    list: (tenantId: string, name: string): InboxMessage[] => [...(messages.get(slot(tenantId, name)) ?? [])],
    /** Forgets every message. */
    clear: () => messages.clear(),
  };
}

/** The inbox's store. */
export type Inbox = ReturnType<typeof createInbox>;
