/**
 * The server's built-in webhook inbox: `POST /__mock/inbox/{name}` receives a delivery, verifies
 * it with the secrets of the subscriptions that point at it (Standard Webhooks, through the SDK's
 * own `verifyWebhook`), and keeps it, with the verification result, for the tenant whose secret
 * signed it; a request that no secret signed is kept, unverified, for every tenant whose
 * subscriptions point here. So a tenant never reads another tenant's deliveries, whatever inbox
 * name it points at. A newcomer sees a whole signed cycle without writing a receiver.
 * @module
 */
import type { WebhookEvent } from "../../src/schemas/index.js";
import { verifyWebhook, WEBHOOK_HEADERS, WebhookVerificationError } from "../../src/webhooks/index.js";
import { formatTimestamp } from "../clock.js";
import type { MockApi } from "../core.js";

/** Where the inbox lives: `POST {INBOX_PATH}/{name}`. */
export const INBOX_PATH = "/__mock/inbox";

/** How many messages each inbox keeps per tenant (the latest). */
export const INBOX_CAPACITY = 100;

/** What the inbox found when it verified a request. */
export interface InboxVerification {
  readonly verified: boolean;
  /** The subscription whose secret verified it (unverified: the first one that points at the inbox). */
  readonly subscriptionId: string | null;
  /** The `WebhookVerificationError` code when it did not verify. */
  readonly code: string | null;
  readonly message: string | null;
}

/** One request the inbox received. */
export interface InboxMessage {
  /** Increasing, unique within the server. */
  readonly id: number;
  readonly inbox: string;
  readonly receivedAt: string;
  readonly headers: {
    readonly "webhook-id": string | null;
    readonly "webhook-timestamp": string | null;
    readonly "webhook-signature": string | null;
  };
  /** The raw body as text. */
  readonly body: string;
  /** The event, when the request verified. */
  readonly event: WebhookEvent | null;
  readonly verification: InboxVerification;
}

/** The inbox's store. */
export interface Inbox {
  /**
   * Receives one request for inbox `name`.
   * @returns the verification per tenant whose subscriptions point here (empty: nobody does, nothing kept)
   */
  receive(name: string, headers: Headers, body: Uint8Array): Promise<InboxVerification[]>;
  /** The messages a tenant received in inbox `name`, oldest first. */
  list(tenantId: string, name: string): InboxMessage[];
  /** Forgets every message. */
  clear(): void;
}

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

/** Verifies with each secret in turn: one match is enough (a rotation signs with two). */
async function verify(
  subscriptions: readonly { id: string; secrets: readonly string[] }[],
  headers: Headers,
  body: Uint8Array,
  now: Date,
): Promise<{ verification: InboxVerification; event: WebhookEvent | null }> {
  let failure: WebhookVerificationError | undefined;
  for (const subscription of subscriptions) {
    for (const secret of subscription.secrets) {
      try {
        const event = await verifyWebhook({ secret, headers, body, now });
        return { verification: { verified: true, subscriptionId: subscription.id, code: null, message: null }, event };
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        failure ??= error;
      }
    }
  }
  const verification = {
    verified: false,
    subscriptionId: subscriptions[0]?.id ?? null,
    code: failure?.code ?? null,
    message: failure?.message ?? null,
  };
  return { verification, event: null };
}

/** Whether one of the subscriptions' secrets signed the request, whatever its timestamp (who sent it, not whether it is fresh). */
async function signedByAny(subscriptions: readonly { secrets: readonly string[] }[], headers: Headers, body: Uint8Array): Promise<boolean> {
  for (const { secrets } of subscriptions) {
    for (const secret of secrets) {
      try {
        await verifyWebhook({ secret, headers, body, toleranceSeconds: Number.POSITIVE_INFINITY });
        return true;
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
      }
    }
  }
  return false;
}

/**
 * Creates an inbox over a mock.
 * @param api - the mock whose subscriptions name the inboxes and hold the secrets
 * @param now - the clock the verification's timestamp tolerance is checked against (the mock's)
 * @returns the inbox
 */
export function createInbox(api: MockApi, now: () => Date): Inbox {
  /** tenant → inbox name → messages */
  let messages = new Map<string, Map<string, InboxMessage[]>>();
  let counter = 0;

  /** Keeps one message for a tenant, within the inbox's capacity. */
  function keep(tenantId: string, message: InboxMessage): void {
    const byName = messages.get(tenantId) ?? new Map<string, InboxMessage[]>();
    messages.set(tenantId, byName);
    const list = byName.get(message.inbox) ?? [];
    byName.set(message.inbox, list);
    list.push(message);
    if (list.length > INBOX_CAPACITY) list.splice(0, list.length - INBOX_CAPACITY);
  }

  return {
    async receive(name, headers, body) {
      const at = now();
      const pointing = api.state.tenants.list().flatMap(({ id: tenantId }) => {
        const subscriptions = api.state.webhookSubscriptions
          .list({ tenantId })
          .filter((subscription) => pointsAt(subscription.url, name))
          .map((subscription) => ({
            id: subscription.id,
            secrets: api.state.webhookSubscriptions.signingSecrets(subscription.id, { tenantId }) ?? [],
          }));
        return subscriptions.length === 0 ? [] : [{ tenantId, subscriptions }];
      });
      // A message belongs to the tenant whose secret signed it (however old it is); one that no
      // secret signed is shown, unverified, to every tenant pointing here: it holds nothing of theirs.
      const signers: typeof pointing = [];
      for (const tenant of pointing) if (await signedByAny(tenant.subscriptions, headers, body)) signers.push(tenant);
      const recipients = signers.length > 0 ? signers : pointing;
      const results: InboxVerification[] = [];
      for (const { tenantId, subscriptions } of recipients) {
        const { verification, event } = await verify(subscriptions, headers, body, at);
        keep(tenantId, {
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
        results.push(verification);
      }
      return results;
    },
    list: (tenantId, name) => [...(messages.get(tenantId)?.get(name) ?? [])],
    clear() {
      messages = new Map();
    },
  };
}
