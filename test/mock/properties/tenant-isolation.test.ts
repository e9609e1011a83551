/**
 * Property (issue 32): two tenants holding the same IDs for every kind of resource (prospects,
 * logs and idempotency keys, page groups, pages, versions, webhook subscriptions, faults, inbox
 * names), under random interleavings of every write and every webhook outcome (a receiver
 * succeeding or failing, time passing through retries and the 5-day deactivation, redeliveries,
 * secret rotations, resets, unsigned requests to the shared inbox name). Neither ever observes or
 * changes the other: what each tenant sees in the shared mock (its data, its request log, its
 * events, deliveries and attempts, its inbox, its faults) equals what it sees in a mock where only
 * its own commands (and the keyless world's) ran. Bounds are small (3 requests, 3 deliveries and events per
 * tenant), so a bound shared between tenants shows too.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMockApi, type MockApi } from "../../../mock/core.js";

const BASE = "https://api.prospectkit.test";
const TENANTS = { a: { key: "key_a", id: "tenant_a" }, b: { key: "key_b", id: "tenant_b" } } as const;
type Who = keyof typeof TENANTS;
/** Every ID both tenants use. */
const IDS = {
  group: "pagegroup_same",
  page: "page_same",
  versions: ["pageversion_same_1", "pageversion_same_2"],
  subscription: "webhooksubscription_same",
  prospects: ["prospect_01hzy8k3m4n5p6q7r8s9t0v1aa", "prospect_01hzy8k3m4n5p6q7r8s9t0v1bb"],
  inbox: "same-inbox",
} as const;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A command of one tenant, or of the world outside both (time, unsigned requests). */
type Command =
  | { readonly who: Who; readonly op: "log"; readonly prospect: 0 | 1; readonly idempotencyKey: string | null; readonly source: string }
  | { readonly who: Who; readonly op: "group" | "page" | "getPage" | "formEvent" | "rotate" | "reset" | "clearFaults" | "redeliver" }
  | { readonly who: Who; readonly op: "version" | "process" | "publish"; readonly index: 0 | 1 }
  | { readonly who: Who; readonly op: "subscribe"; readonly inbox: boolean }
  | { readonly who: Who; readonly op: "patch"; readonly active: boolean; readonly events: boolean }
  | { readonly who: Who; readonly op: "fault"; readonly status: 500 | 503 }
  | { readonly who: Who; readonly op: "receiver"; readonly ok: boolean }
  | { readonly who: "world"; readonly op: "advance"; readonly ms: number }
  | { readonly who: "world"; readonly op: "unsigned" };

const who = fc.constantFrom<Who>("a", "b");
const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      who,
      op: fc.constant("log" as const),
      prospect: fc.constantFrom<0 | 1>(0, 1),
      idempotencyKey: fc.constantFrom(null, "idem-1", "idem-2"),
      source: fc.constantFrom("crm", "web"),
    }),
  },
  fc.record({ who, op: fc.constantFrom("group", "page", "getPage", "rotate", "reset", "clearFaults", "redeliver") }),
  { weight: 3, arbitrary: fc.record({ who, op: fc.constant("formEvent" as const) }) },
  { weight: 2, arbitrary: fc.record({ who, op: fc.constantFrom("version", "process", "publish"), index: fc.constantFrom<0 | 1>(0, 1) }) },
  { weight: 2, arbitrary: fc.record({ who, op: fc.constant("subscribe" as const), inbox: fc.boolean() }) },
  fc.record({ who, op: fc.constant("patch" as const), active: fc.boolean(), events: fc.boolean() }),
  fc.record({ who, op: fc.constant("fault" as const), status: fc.constantFrom<500 | 503>(500, 503) }),
  { weight: 2, arbitrary: fc.record({ who, op: fc.constant("receiver" as const), ok: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({
      who: fc.constant("world" as const),
      op: fc.constant("advance" as const),
      ms: fc.constantFrom(MINUTE, 60 * MINUTE, DAY, 3 * DAY),
    }),
  },
  fc.record({ who: fc.constant("world" as const), op: fc.constant("unsigned" as const) }),
);

/** Both tenants subscribe first, each to its own receiver (which fails or not) or to the shared inbox name: the webhook rules get something to cross. */
const prologue: fc.Arbitrary<Command[]> = fc.tuple(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean()).map(([inboxA, inboxB, okA, okB]) => [
  { who: "a", op: "subscribe", inbox: inboxA },
  { who: "b", op: "subscribe", inbox: inboxB },
  { who: "a", op: "receiver", ok: okA },
  { who: "b", op: "receiver", ok: okB },
]);

/** A mock both tenants live in (or one alone, for the comparison), with a receiver per tenant host that succeeds or fails as told. */
function world() {
  let now = Date.parse("2024-02-29T12:00:00.000Z");
  const failing = new Set<string>();
  let api: MockApi;
  api = createMockApi({
    apiKeys: { [TENANTS.a.key]: TENANTS.a.id, [TENANTS.b.key]: TENANTS.b.id },
    now: () => now,
    baseUrl: BASE,
    retainedRequests: 3,
    webhooks: {
      maxRecords: 3,
      fetch: async (request) => {
        const { host } = new URL(request.url);
        if (`https://${host}` === BASE) return api.fetch(request);
        return new Response(null, { status: failing.has(host) ? 503 : 204 });
      },
    },
  });
  return { api, failing, advance: (ms: number) => (now += ms) };
}

type World = ReturnType<typeof world>;

const send = (w: World, key: string, method: string, path: string, body?: unknown) =>
  w.api.fetch(`${BASE}${path}`, {
    method,
    headers: { "x-api-key": key, ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/** Runs one command in a world; every answer is read to its end. */
async function apply(w: World, c: Command): Promise<void> {
  if (c.who === "world") {
    if (c.op === "advance") w.advance(c.ms);
    else
      await w.api.fetch(`${BASE}/__mock/inbox/${IDS.inbox}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "forged" }),
      });
    await w.api.webhooks.runDue();
    return;
  }
  const { key, id: tenantId } = TENANTS[c.who];
  const host = `${c.who}.example`;
  let answer: Response | undefined;
  switch (c.op) {
    case "log":
      answer = await send(w, key, "POST", "/v0/prospect_logs", {
        source: c.source,
        payload: { by: c.who },
        prospectId: IDS.prospects[c.prospect],
        ...(c.idempotencyKey !== null && { idempotencyKey: c.idempotencyKey }),
      });
      break;
    case "group":
      answer = await send(w, key, "POST", "/__mock/page_groups", { id: IDS.group });
      break;
    case "page":
      answer = await send(w, key, "POST", "/__mock/pages", { id: IDS.page, pageGroupId: IDS.group, customName: `Page of ${c.who}` });
      break;
    case "getPage":
      answer = await send(w, key, "GET", `/v0/page_groups/${IDS.group}/pages/${IDS.page}`);
      break;
    case "version":
      answer = await send(w, key, "POST", "/__mock/page_versions", { id: IDS.versions[c.index], pageId: IDS.page });
      break;
    case "process":
      answer = await send(w, key, "POST", `/__mock/page_versions/${IDS.versions[c.index]}/process`, { computedName: `Name by ${c.who}` });
      break;
    case "publish":
      answer = await send(w, key, "POST", `/__mock/page_versions/${IDS.versions[c.index]}/publish`);
      break;
    case "subscribe": {
      const url = c.inbox ? `${BASE}/__mock/inbox/${IDS.inbox}` : `https://${host}/hook`;
      answer = await send(w, key, "POST", "/__mock/webhook_subscriptions", { id: IDS.subscription, url });
      break;
    }
    case "patch":
      answer = await send(w, key, "PATCH", `/v0/webhook_subscriptions/${IDS.subscription}`, {
        active: c.active,
        ...(c.events && { events: ["form.submitted", "page.version.published"] }),
      });
      break;
    case "rotate":
      answer = await send(w, key, "POST", `/__mock/webhook_subscriptions/${IDS.subscription}/secret/rotate`);
      break;
    case "formEvent":
      answer = await send(w, key, "POST", "/__mock/webhook_events", { kind: "form.submitted", data: { by: c.who } });
      break;
    case "redeliver": {
      const last = w.api.webhooks
        .events()
        .filter((entry) => entry.tenantId === tenantId)
        .at(-1);
      if (last !== undefined) answer = await send(w, key, "POST", `/__mock/webhook_events/${last.event.id}/redeliver`);
      break;
    }
    case "fault":
      answer = await send(w, key, "POST", "/__mock/faults", { kind: "status", status: c.status, operation: "getPage", times: 2 });
      break;
    case "clearFaults":
      answer = await send(w, key, "DELETE", "/__mock/faults");
      break;
    case "reset":
      answer = await send(w, key, "POST", "/__mock/reset");
      break;
    case "receiver":
      if (c.ok) w.failing.delete(host);
      else w.failing.add(host);
      break;
  }
  await answer?.arrayBuffer();
  await w.api.webhooks.runDue();
}

/** The IDs the mock generates from streams both tenants draw on (requests, events, logs): named by order of first appearance. */
const GENERATED = /\b(?:req|event|prospectlog|key)_[0-9a-z]{26}\b/g;
/** What legitimately differs between two runs of the same commands: timings, signatures and secrets (drawn from shared streams). */
const VARYING = new Set(["durationMs", "secret", "previousSecret", "webhook-signature", "id", "headers"]);

/** Everything one tenant observes, with generated IDs named by order of first appearance. */
async function view(w: World, t: Who): Promise<string> {
  const { key, id: tenantId } = TENANTS[t];
  const snapshot = JSON.parse(w.api.state.snapshot()) as { tenants: { tenant: { id: string } }[] };
  const inbox = (await (await send(w, key, "GET", `/__mock/inbox/${IDS.inbox}`)).json()) as unknown;
  const seen = {
    data: snapshot.tenants.find((part) => part.tenant.id === tenantId),
    requests: w.api.tenant(tenantId).requests(),
    events: w.api.webhooks.events().filter((entry) => entry.tenantId === tenantId),
    deliveries: w.api.webhooks.list().filter((delivery) => delivery.tenantId === tenantId),
    inbox,
    faults: w.api.tenant(tenantId).faults.pending(),
    active: w.api.state.webhookSubscriptions.get(IDS.subscription, { tenantId })?.active ?? null,
  };
  const names = new Map<string, string>();
  const text = JSON.stringify(seen, (name, value: unknown) => (VARYING.has(name) && name !== "" ? undefined : value));
  return text.replace(GENERATED, (id) => {
    if (!names.has(id)) names.set(id, `${id.slice(0, id.indexOf("_"))}#${names.size}`);
    return names.get(id)!;
  });
}

describe("two tenants with the same IDs never observe or change each other", () => {
  it("property: each tenant's view in the shared mock equals its view in a mock running only its own commands (and the world's)", async () => {
    await fc.assert(
      fc.asyncProperty(prologue, fc.array(command, { minLength: 1, maxLength: 50 }), async (start, rest) => {
        const commands = [...start, ...rest];
        const shared = world();
        const alone = { a: world(), b: world() };
        for (const c of commands) {
          await apply(shared, c);
          if (c.who === "world" || c.who === "a") await apply(alone.a, c);
          if (c.who === "world" || c.who === "b") await apply(alone.b, c);
          for (const t of ["a", "b"] as const) expect(await view(shared, t), `tenant ${t} after ${JSON.stringify(c)}`).toBe(await view(alone[t], t));
        }
      }),
      { numRuns: 200 },
    );
  }, 120_000);
});
