import { describe, expect, expectTypeOf, it } from "vitest";
import {
  type APIPromise,
  createBaseClient,
  createProspectLog,
  getPage,
  NotFoundError,
  type Page,
  type ProspectLog,
  updateWebhookSubscription,
  type WebhookSubscription,
  type WithResponse,
} from "../../src/index.js";
import { fakeFetch } from "./support/fetch.js";
import { API_KEY, clientFor, createBody, page, prospectLog, subscription } from "./support/fixtures.js";
import { problem, useServer } from "./support/http-server.js";

const server = useServer();

describe("issue 3: .withResponse() gives the data with the HTTP response and the request ID", () => {
  it("on success", async () => {
    server.script({ body: page, headers: { "x-request-id": "req_abc", "idempotent-replayed": "true" } });
    const { data, response, requestId } = await clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }).withResponse();
    expect(data).toEqual(page);
    expect(requestId).toBe("req_abc");
    expect(response.status).toBe(200);
    expect(response.headers.get("idempotent-replayed")).toBe("true");
  });

  it("a response without x-request-id gives requestId undefined", async () => {
    const { fetch } = fakeFetch(new Response(JSON.stringify(prospectLog), { status: 201 }));
    const { requestId } = await clientFor("https://api.example.com", { fetch }).createProspectLog(createBody).withResponse();
    expect(requestId).toBeUndefined();
  });

  it("on failure it rejects with the same error, and the plain promise raises no unhandled rejection", async () => {
    server.script(problem(404, "not_found"));
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", listener);
    try {
      await expect(clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" }).withResponse()).rejects.toThrow(NotFoundError);
      // Node reports an unhandled rejection once the microtasks of the turn have run: the next turn is that event.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", listener);
    }
  });

  it("awaiting the promise and calling withResponse() make one request", async () => {
    server.script({ body: page });
    const call = clientFor(server.url).getPage({ pageGroupId: "g", pageId: "p" });
    const [data, full] = await Promise.all([call, call.withResponse()]);
    expect(full.data).toBe(data);
    expect(server.received).toHaveLength(1);
  });
});

describe("issue 3: the results have exactly the spec's fields (types from the shared schemas)", () => {
  it("types", () => {
    const client = clientFor("https://api.example.com");
    expectTypeOf(client.createProspectLog).returns.toEqualTypeOf<APIPromise<ProspectLog>>();
    expectTypeOf(client.getPage).returns.toEqualTypeOf<APIPromise<Page>>();
    expectTypeOf(client.updateWebhookSubscription).returns.toEqualTypeOf<APIPromise<WebhookSubscription>>();
    expectTypeOf<Awaited<ReturnType<APIPromise<Page>["withResponse"]>>>().toEqualTypeOf<WithResponse<Page>>();
    expectTypeOf<keyof ProspectLog>().toEqualTypeOf<"prospectId" | "prospectLogId" | "createdAt" | "createdProspect" | "source" | "type">();
    expectTypeOf<keyof WebhookSubscription>().toEqualTypeOf<"id" | "url" | "events" | "active" | "createdAt" | "updatedAt">();
    // every operation takes one object with named fields: two IDs can never be swapped silently
    expectTypeOf(client.getPage).parameter(0).toEqualTypeOf<{ pageGroupId: string; pageId: string }>();
    expectTypeOf(client.createProspectLog).parameter(0).toHaveProperty("payload");
    // @ts-expect-error: positional IDs are not accepted
    void (() => client.getPage("g", "p"));
    // a read-only list (as const) is accepted: the SDK never changes its input
    expectTypeOf(client.updateWebhookSubscription).toBeCallableWith({ subscriptionId: "s", events: ["form.enriched", "form.submitted"] as const });
    // @ts-expect-error: an unknown event kind is not accepted in a request
    void (() => client.updateWebhookSubscription({ subscriptionId: "s", events: ["page.deleted"] }));
  });
});

describe("issue 3.10: standalone operations on a base client, for bundles that need only some", () => {
  it("createBaseClient with createProspectLog, getPage and updateWebhookSubscription", async () => {
    server.script({ status: 201, body: prospectLog }, { body: page }, { body: subscription });
    const client = createBaseClient({ apiKey: API_KEY, baseUrl: server.url });
    expect(await createProspectLog(client, createBody)).toEqual(prospectLog);
    expect(await getPage(client, { pageGroupId: "g", pageId: "p" })).toEqual(page);
    expect((await updateWebhookSubscription(client, { subscriptionId: "s", active: false }).withResponse()).data).toEqual(subscription);
    expect(server.received.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /v0/prospect_logs",
      "GET /v0/page_groups/g/pages/p",
      "PATCH /v0/webhook_subscriptions/s",
    ]);
  });

  it("the full client works with the standalone functions too", async () => {
    server.script({ body: page });
    expect(await getPage(clientFor(server.url), { pageGroupId: "g", pageId: "p" })).toEqual(page);
  });
});
