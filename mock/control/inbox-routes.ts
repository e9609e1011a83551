/**
 * The built-in inbox's routes: `POST /__mock/inbox/{name}` receives a delivery (no API key: a
 * webhook sender has none) and verifies it; `GET` lists what the caller's tenant received there.
 * @module
 */
import { type ControlResult, ok } from "./results.js";
import type { ControlContext, ControlRoute } from "./route.js";
import { InboxMessageSchema, InboxVerificationSchema, listOf } from "./schemas.js";

/** The inbox's answer to a sender: 200 when a subscription's secret verifies the request, else a 400 saying why. */
async function receive(context: ControlContext): Promise<ControlResult> {
  const name = context.params["name"]!;
  const results = await context.inbox.receive(name, context.request.headers, context.body as Uint8Array);
  if (results.length === 0) return { ok: false, status: 404, detail: `No webhook subscription points at the inbox ${JSON.stringify(name)}.` };
  const verified = results.find((result) => result.verified);
  if (verified !== undefined) return ok(verified);
  const [first] = results;
  return { ok: false, status: 400, detail: `The webhook did not verify (${first!.code}): ${first!.message}` };
}

/** The inbox's routes, under `/__mock/inbox`. */
export const INBOX_ROUTES: readonly ControlRoute[] = [
  {
    method: "POST",
    path: "/__mock/inbox/{name}",
    operationId: "receiveWebhook",
    summary: "The built-in receiver: verifies a delivery with the secret of the subscription pointing here, and keeps it (no API key)",
    public: true,
    body: "raw",
    announces: "all",
    status: 200,
    response: InboxVerificationSchema,
    run: receive,
  },
  {
    method: "GET",
    path: "/__mock/inbox/{name}",
    operationId: "listInbox",
    summary: "List what the inbox received for your tenant (the latest 100), oldest first, with each verification result",
    status: 200,
    response: listOf(InboxMessageSchema),
    run: ({ inbox, tenantId, params }) => ok({ data: inbox.list(tenantId, params["name"]!) }),
  },
];
