/**
 * Deployments for the tests of `verify`: the mock in process (two tenants, a published page, a
 * subscription with an events list) reached through a `fetch`, and deliberately wrong variants of
 * it, each breaking one rule the way a real deployment might.
 */
import { createMockApi, type MockApi } from "../../../mock/index.js";

/** The keys of the two tenants (long enough to be scrubbed like real keys). */
export const KEYS = { a: "pk_verify_tenant_a_0123456789", b: "pk_verify_tenant_b_0123456789" } as const;

/** The page and subscription the fixtures hold. */
export const INPUTS = { page: { pageGroupId: "pagegroup_v", pageId: "page_v" }, subscription: "webhooksubscription_v" } as const;

/** The subscription as seeded. */
export const ORIGINAL = { url: "https://hooks.example.com/original", events: ["form.submitted"], active: true } as const;

/** A mock with the inputs `verify` needs. */
export function deploymentMock(): MockApi {
  return createMockApi({
    baseUrl: "https://deployment.example.test",
    apiKeys: { [KEYS.a]: "tenant_a", [KEYS.b]: "tenant_b" },
    fixtures: (state) => {
      state.pageGroups.create({ id: INPUTS.page.pageGroupId });
      state.pages.create({ id: INPUTS.page.pageId, pageGroupId: INPUTS.page.pageGroupId, customName: "Pricing", computedName: "AI pricing" });
      const version = state.pageVersions.create({ pageId: INPUTS.page.pageId });
      state.pageVersions.process(version.id, { computedName: "AI pricing" });
      state.pageVersions.publish(version.id);
      state.webhookSubscriptions.create({ id: INPUTS.subscription, ...ORIGINAL, events: [...ORIGINAL.events] });
    },
  });
}

/** The ways a deployment in these tests deviates. */
export type Deviation =
  | "201 answered as 200"
  | "createdProspect dropped"
  | "idempotency ignored"
  | "unknown key answered 403"
  | "events: [] accepted"
  | "key echoed"
  | "PATCH answered 201";

type Fetch = (url: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A request's JSON object body, or `undefined` (none, not JSON, not an object): verify sends all kinds. */
async function objectBody(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = JSON.parse(await request.clone().text());
    return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function rewrite(response: Response, change: (body: any) => unknown, status = response.status): Promise<Response> {
  const body = change(JSON.parse(await response.text()));
  return new Response(JSON.stringify(body), { status, headers: response.headers });
}

/**
 * A `fetch` to the mock, deviating as asked (none: the mock as it is).
 * @param api - the mock behind
 * @param deviation - what to break
 * @param count - called once per request
 */
export function deploymentFetch(api: MockApi, deviation?: Deviation, count: () => void = () => {}): Fetch {
  return async (url, init) => {
    count();
    let request = new Request(url, init);
    const isCreate = request.method === "POST" && new URL(request.url).pathname === "/v0/prospect_logs";
    const body = await objectBody(request);
    if (deviation === "idempotency ignored" && isCreate && body !== undefined) {
      const { idempotencyKey: _dropped, ...rest } = body;
      request = new Request(request, { body: JSON.stringify(rest) });
    }
    if (deviation === "events: [] accepted" && request.method === "PATCH" && body !== undefined) {
      if (Array.isArray(body.events) && body.events.length === 0) {
        const answer = await api.fetch(new Request(request, { body: "{}" }));
        return rewrite(answer, (subscription) => ({ ...subscription, events: [] }));
      }
    }
    const key = request.headers.get("x-api-key");
    const response = await api.fetch(request);
    if (deviation === "201 answered as 200" && response.status === 201) return rewrite(response, (body) => body, 200);
    if (deviation === "PATCH answered 201" && request.method === "PATCH" && response.status === 200) return rewrite(response, (body) => body, 201);
    if (deviation === "createdProspect dropped" && response.status === 201)
      return rewrite(response, ({ createdProspect: _dropped, ...body }) => body);
    if (deviation === "unknown key answered 403" && response.status === 401 && key !== null)
      return rewrite(response, (body) => ({ ...body, status: 403, code: "forbidden" }), 403);
    if (deviation === "key echoed" && response.status === 401 && key !== null)
      return rewrite(response, (body) => ({ ...body, detail: `The key ${key} is not known.` }));
    return response;
  };
}
