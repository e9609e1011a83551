/**
 * `api.state`: every helper validates like the API (no invalid record can be seeded), seeds a
 * valid object from a few fields, and returns copies that cannot change the stored data.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, DEFAULT_COMPUTED_NAME, MockStateError } from "../../mock/index.js";

const T0 = Date.parse("2024-02-29T12:00:00.000Z");
const make = () => createMockApi({ apiKeys: { pk_a: "tenant_a", pk_b: "tenant_b" }, seed: 1, now: () => T0 });

function refusal(call: () => unknown): MockStateError {
  try {
    call();
  } catch (error) {
    if (error instanceof MockStateError) return error;
    throw error;
  }
  throw new TypeError("expected a MockStateError");
}

describe("state helpers refuse what the API could never store (MockStateError, every field listed)", () => {
  const api = make();
  api.state.pageGroups.create({ id: "group" });
  api.state.pages.create({ id: "page", pageGroupId: "group" });
  api.state.prospects.create({ id: "prospect_01hzy8k3m4n5p6q7r8s9t0v1wx", email: "taken@example.com" });
  api.state.webhookSubscriptions.create({ id: "sub", url: "https://h.example.com" });

  it.each([
    ["a prospect with a bad email and phone", () => api.state.prospects.create({ email: "no", phoneNumber: "123" }), ["/email", "/phoneNumber"]],
    ["a prospect with an ID off the pattern", () => api.state.prospects.create({ id: "prospect_X" }), ["/id"]],
    ["a prospect with an unknown field", () => api.state.prospects.create({ emial: "a@b.co" } as never), ["/emial"]],
    ["a prospect whose email another holds (any case)", () => api.state.prospects.create({ email: "TAKEN@example.com" }), ["/email"]],
    ["a prospect with a taken ID", () => api.state.prospects.create({ id: "prospect_01hzy8k3m4n5p6q7r8s9t0v1wx" }), ["/id"]],
    ["a log without source", () => api.state.prospectLogs.create({ payload: {} } as never), ["/source"]],
    ["a log with an array payload", () => api.state.prospectLogs.create({ source: "s", payload: [] as never }), ["/payload"]],
    ["a page with a numeric customName", () => api.state.pages.create({ customName: 1 as never }), ["/customName"]],
    ["a page with an empty ID", () => api.state.pages.create({ id: "" }), ["/id"]],
    ["a page with a taken ID", () => api.state.pages.create({ id: "page", pageGroupId: "group" }), ["/id"]],
    ["a page group with a taken ID", () => api.state.pageGroups.create({ id: "group" }), ["/id"]],
    ["a page change with an unknown field", () => api.state.pages.update("page", { effectiveName: "x" } as never), ["/effectiveName"]],
    ["a processed version with no computed name", () => api.state.pageVersions.process("v", {} as never), ["/computedName"]],
    ["a subscription with an ftp url", () => api.state.webhookSubscriptions.create({ url: "ftp://x" }), ["/url"]],
    ["a subscription with events []", () => api.state.webhookSubscriptions.create({ url: "https://x.test", events: [] }), ["/events"]],
    [
      "a subscription with an unknown kind",
      () => api.state.webhookSubscriptions.create({ url: "https://x.test", events: ["x" as never] }),
      ["/events/0"],
    ],
    ["a subscription with a taken ID", () => api.state.webhookSubscriptions.create({ id: "sub", url: "https://x.test" }), ["/id"]],
    ["a subscription update with events []", () => api.state.webhookSubscriptions.update("sub", { events: [] }), ["/events"]],
    ["a form event of a page kind", () => api.state.forms.emit({ kind: "page.version.created" as never, data: {} }), ["/kind"]],
    ["a form event whose data is an array", () => api.state.forms.emit({ kind: "form.submitted", data: [] as never }), ["/data"]],
    ["a tenant with an empty ID", () => api.state.tenants.create({ id: "" }), ["/id"]],
    ["a tenant with a taken ID", () => api.state.tenants.create({ id: "tenant_a" }), ["/id"]],
    ["a tenant with an already issued key", () => api.state.tenants.create({ apiKeys: ["pk_a"] }), ["/apiKeys"]],
    ["an API key with a space", () => api.state.apiKeys.issue({ key: "a b" }), ["/key"]],
    ["an already issued API key", () => api.state.apiKeys.issue({ key: "pk_b" }), ["/key"]],
  ])("%s", (_, call, pointers) => {
    const before = api.state.snapshot();
    const error = refusal(call);
    expect(error.errors.map((e) => e.pointer)).toEqual(pointers);
    expect(error).toBeInstanceOf(TypeError);
    expect(api.state.snapshot()).toBe(before);
  });

  it.each([
    ["an unknown tenant", () => api.state.pages.create({ tenantId: "tenant_x" })],
    ["a page in an unknown group", () => api.state.pages.create({ pageGroupId: "group_x" })],
    ["a version of an unknown page", () => api.state.pageVersions.create({ pageId: "page_x" })],
    ["publishing an unknown version", () => api.state.pageVersions.publish("v_x")],
    ["updating an unknown page", () => api.state.pages.update("page_x", {})],
    ["updating an unknown subscription", () => api.state.webhookSubscriptions.update("sub_x", {})],
    ["a page of another tenant's group", () => api.state.pages.create({ tenantId: "tenant_b", pageGroupId: "group" })],
  ])("refuses %s", (_, call) => {
    const before = api.state.snapshot();
    expect(call).toThrow(MockStateError);
    expect(api.state.snapshot()).toBe(before);
  });

  it("a version must be processed before it is published", () => {
    const version = api.state.pageVersions.create({ pageId: "page" });
    expect(() => api.state.pageVersions.publish(version.id)).toThrow(/never processed/);
    expect(api.state.pages.view("page")!.publishedVersion.versionId).toBeNull();
  });

  it("no message repeats an API key", () => {
    const error = refusal(() => api.state.apiKeys.issue({ key: "pk_b" }));
    expect(error.message).not.toContain("pk_b");
  });
});

describe("seeding helpers make a valid object from a few fields", () => {
  it("a page from nothing: a new group, default names, never published", () => {
    const api = make();
    const page = api.state.pages.create();
    expect(page).toMatchObject({ tenantId: "tenant_a", customName: null, computedName: DEFAULT_COMPUTED_NAME, supplementaryContext: null });
    expect(api.state.pageGroups.get(page.pageGroupId)).toBeDefined();
    expect(api.state.pages.view(page.id)).toEqual({
      pageId: page.id,
      pageGroupId: page.pageGroupId,
      tenantId: "tenant_a",
      createdAt: "2024-02-29T12:00:00.000Z",
      effectiveName: DEFAULT_COMPUTED_NAME,
      customName: null,
      computedName: DEFAULT_COMPUTED_NAME,
      supplementaryContext: null,
      publishedVersion: { versionId: null, versionNumber: null, publishedAt: null },
    });
  });

  it("a version's life: created, processed (its name becomes the page's), published", () => {
    const api = make();
    const page = api.state.pages.create();
    const v1 = api.state.pageVersions.create({ pageId: page.id });
    expect(v1).toMatchObject({ versionNumber: 1, status: "created", computedName: null });
    expect(api.state.pageVersions.process(v1.id, { computedName: "Computed" })).toMatchObject({ status: "processed", computedName: "Computed" });
    expect(api.state.pageVersions.publish(v1.id)).toMatchObject({ status: "published", publishedAt: "2024-02-29T12:00:00.000Z" });
    expect(api.state.pages.view(page.id)).toMatchObject({ computedName: "Computed", publishedVersion: { versionId: v1.id, versionNumber: 1 } });
    const v2 = api.state.pageVersions.create({ pageId: page.id });
    expect(v2.versionNumber).toBe(2);
    expect(api.state.pageVersions.list({ pageId: page.id }).map((v) => v.versionNumber)).toEqual([1, 2]);
  });

  it("publishing an older version again is a rollback", () => {
    const api = make();
    const page = api.state.pages.create();
    const [v1, v2] = [1, 2].map(() => api.state.pageVersions.create({ pageId: page.id }));
    for (const v of [v1!, v2!]) api.state.pageVersions.process(v.id, { computedName: v.id });
    api.state.pageVersions.publish(v2!.id);
    api.state.pageVersions.publish(v1!.id);
    expect(api.state.pages.view(page.id)!.publishedVersion.versionId).toBe(v1!.id);
  });

  it("a subscription from a URL: events null (all kinds), active, a secret, createdAt = updatedAt", () => {
    const sub = make().state.webhookSubscriptions.create({ url: "https://h.example.com" });
    expect(sub).toMatchObject({ events: null, active: true, createdAt: "2024-02-29T12:00:00.000Z", updatedAt: "2024-02-29T12:00:00.000Z" });
    expect(sub.secret).toMatch(/^whsec_/);
  });

  it("a subscription's events are de-duplicated in first-seen order", () => {
    const sub = make().state.webhookSubscriptions.create({
      url: "https://h.example.com",
      events: ["form.enriched", "form.submitted", "form.enriched"],
    });
    expect(sub.events).toEqual(["form.enriched", "form.submitted"]);
  });

  it("state.prospectLogs.create answers like the API, with replays for a repeated key", () => {
    const api = make();
    const first = api.state.prospectLogs.create({ source: "crm", payload: {}, email: "s@example.com", idempotencyKey: "k" });
    expect(first).toMatchObject({ type: "webhook", createdProspect: true, createdAt: "2024-02-29T12:00:00.000Z" });
    expect(api.state.prospectLogs.create({ source: "crm", payload: {}, email: "s@example.com", idempotencyKey: "k" })).toEqual(first);
    expect(() => api.state.prospectLogs.create({ source: "other", payload: {}, idempotencyKey: "k" })).toThrow(/another body/);
    expect(api.state.prospectLogs.list({ prospectId: first.prospectId })).toHaveLength(1);
  });

  it("logs of one prospect are listed oldest first; other prospects' are not", () => {
    const api = make();
    const a = api.state.prospectLogs.create({ source: "1", payload: {}, email: "a@example.com" });
    api.state.prospectLogs.create({ source: "x", payload: {}, email: "b@example.com" });
    api.state.prospectLogs.create({ source: "2", payload: {}, email: "A@example.com" });
    expect(api.state.prospectLogs.list({ prospectId: a.prospectId }).map((log) => log.source)).toEqual(["1", "2"]);
  });

  it.each([
    ["email in any case", { email: "FIND@example.com" }],
    ["phone number", { phoneNumber: "+4915112345678" }],
    ["LinkedIn URL, normalised", { linkedinProfileUrl: "https://www.LinkedIn.com/in/find/?x=1" }],
  ])("findByIdentifier by %s", (_, query) => {
    const api = make();
    const prospect = api.state.prospects.create({
      email: "find@example.com",
      phoneNumber: "+4915112345678",
      linkedinProfileUrl: "linkedin.com/in/find",
    });
    expect(api.state.prospects.findByIdentifier(query)?.id).toBe(prospect.id);
    expect(api.state.prospects.findByIdentifier({ ...query, tenantId: "tenant_b" })).toBeUndefined();
  });

  it("findByIdentifier takes exactly one identifier", () => {
    expect(() => make().state.prospects.findByIdentifier({ email: "a@b.co", phoneNumber: "+12" } as never)).toThrow(MockStateError);
  });

  it("tenants and keys: a new tenant with a key reaches only its own data", async () => {
    const api = make();
    const tenant = api.state.tenants.create({ id: "tenant_c", apiKeys: ["pk_c"] });
    const page = api.state.pages.create({ tenantId: tenant.id });
    const key = api.state.apiKeys.issue({ tenantId: tenant.id });
    expect(key).toMatch(/^key_[0-9a-z]{26}$/);
    for (const k of ["pk_c", key]) {
      const res = await api.fetch(`${api.baseUrl}/v0/page_groups/${page.pageGroupId}/pages/${page.id}`, { headers: { "x-api-key": k } });
      expect(res.status).toBe(200);
    }
    const other = await api.fetch(`${api.baseUrl}/v0/page_groups/${page.pageGroupId}/pages/${page.id}`, { headers: { "x-api-key": "pk_a" } });
    expect(other.status).toBe(404);
    expect(api.state.apiKeys.revoke("pk_c")).toBe(true);
    expect(api.state.apiKeys.revoke("pk_c")).toBe(false);
    expect(api.state.tenants.list().map((t) => t.id)).toEqual(["tenant_a", "tenant_b", "tenant_c"]);
    expect(api.state.defaultTenantId).toBe("tenant_a");
  });

  it("a mock without tenants explains how to create one", () => {
    const api = createMockApi({ apiKeys: [] });
    expect(api.state.defaultTenantId).toBeNull();
    expect(() => api.state.pages.create()).toThrow(/no tenant yet/);
    api.state.tenants.create({ id: "first" });
    expect(api.state.pages.create().tenantId).toBe("first");
  });
});

describe("getters return copies: changing them changes nothing", () => {
  it.each([
    [
      "a prospect",
      (api: ReturnType<typeof make>) => api.state.prospects.create({ email: "c@example.com" }),
      (api: ReturnType<typeof make>, r: { id: string }) => api.state.prospects.get(r.id),
    ],
    [
      "a page",
      (api: ReturnType<typeof make>) => api.state.pages.create(),
      (api: ReturnType<typeof make>, r: { id: string }) => api.state.pages.get(r.id),
    ],
    [
      "a subscription",
      (api: ReturnType<typeof make>) => api.state.webhookSubscriptions.create({ url: "https://h.example.com", events: ["form.enriched"] }),
      (api: ReturnType<typeof make>, r: { id: string }) => api.state.webhookSubscriptions.get(r.id),
    ],
  ] as const)("%s", (_, create, get) => {
    const api = make();
    const record = create(api) as unknown as Record<string, unknown>;
    const original = { ...record };
    const snapshot = api.state.snapshot();
    for (const key of Object.keys(record)) record[key] = "changed";
    expect(get(api, original as { id: string })).toEqual(original);
    expect(api.state.snapshot()).toBe(snapshot);
  });

  it("a subscription's events list is copied too", () => {
    const api = make();
    const sub = api.state.webhookSubscriptions.create({ url: "https://h.example.com", events: ["form.enriched"] });
    api.state.webhookSubscriptions.get(sub.id)!.events!.push("form.submitted");
    expect(api.state.webhookSubscriptions.get(sub.id)!.events).toEqual(["form.enriched"]);
  });
});
