/**
 * `persistState`: a browser mock's state survives a reload. The page's previous load saved the
 * state on `pagehide`; the next load's mock, created with the same options, gets exactly that
 * state back (its snapshot byte for byte, and the API answering from it); anything else saved is
 * dropped with a warning and the mock starts from its fixtures. Here a Map stands for
 * `sessionStorage` and an EventTarget for the window; test/browser/app-recipe.test.ts reloads a
 * real page in Chromium.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMockApi, type MockApiOptions, persistState } from "../../mock/index.js";
import { createClient } from "../../src/index.js";

/** A `sessionStorage` stand-in. */
function memoryStorage(): Storage & { readonly items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const KEY = "prospectkit/mock state";
const OPTIONS: MockApiOptions = {
  apiKeys: { pk_a: "tenant_a", pk_b: "tenant_b" },
  seed: 3,
  now: () => Date.parse("2024-02-29T12:00:00.000Z"),
  fixtures(state) {
    state.pageGroups.create({ id: "pagegroup_1" });
    state.pages.create({ id: "page_1", pageGroupId: "pagegroup_1", customName: "Pricing" });
    state.webhookSubscriptions.create({ id: "whsub_1", url: "https://hooks.example.com/a" });
  },
};

/** One page load: a mock made with `options`, persisted in `storage`; `hide()` is the page going away. */
function load(storage: Storage, options: MockApiOptions = OPTIONS) {
  const page = new EventTarget();
  const api = createMockApi(options);
  const restored = persistState(api, { storage, page });
  const client = createClient({ apiKey: "pk_a", baseUrl: api.baseUrl, fetch: api.fetch, maxRetries: 0 });
  return { api, client, restored, hide: () => page.dispatchEvent(new Event("pagehide")) };
}

/** What an app does in the first load: every kind of record, an idempotency key, a rotation. */
async function use(first: ReturnType<typeof load>): Promise<void> {
  await first.client.createProspectLog({ source: "crm", payload: { n: 1 }, email: "Ada@Example.com", name: "Ada", idempotencyKey: "idem-1" });
  await first.client.createProspectLog({ source: "crm", payload: { n: 2 }, phoneNumber: "+14155550100" });
  await first.client.updateWebhookSubscription({ subscriptionId: "whsub_1", active: false, events: ["form.submitted"] });
  const version = first.api.state.pageVersions.create({ pageId: "page_1" });
  first.api.state.pageVersions.process(version.id, { computedName: "Plans" });
  first.api.state.pageVersions.publish(version.id);
  first.api.state.webhookSubscriptions.rotateSecret("whsub_1");
  first.api.state.prospectLogs.create({ source: "other tenant", payload: {}, email: "bob@example.com", tenantId: "tenant_b" });
}

afterEach(() => vi.restoreAllMocks());

describe("persistState", () => {
  it("saves nothing until the page goes away, then the state as of that moment", async () => {
    const storage = memoryStorage();
    const first = load(storage);
    await use(first);
    expect(storage.items.has(KEY)).toBe(false);
    first.hide();
    expect(storage.items.get(KEY)).toContain(first.api.state.snapshot());
  });

  it("the next load gets the same state back, byte for byte, and the API answers from it", async () => {
    const storage = memoryStorage();
    const first = load(storage);
    expect(first.restored).toBe(false);
    await use(first);
    first.hide();

    const second = load(storage);
    expect(second.restored).toBe(true);
    expect(second.api.state.snapshot()).toBe(first.api.state.snapshot());
    // The indexes are rebuilt: lookups by identifier (any case), the logs of a prospect, the page's versions.
    const ada = second.api.state.prospects.findByIdentifier({ email: "ADA@example.com" });
    expect(ada?.name).toBe("Ada");
    expect(second.api.state.prospectLogs.list({ prospectId: ada!.id })).toHaveLength(1);
    expect(second.api.state.pageVersions.list({ pageId: "page_1" }).map((version) => version.status)).toEqual(["published"]);
    expect(await second.client.getPage({ pageGroupId: "pagegroup_1", pageId: "page_1" })).toEqual(
      await first.client.getPage({ pageGroupId: "pagegroup_1", pageId: "page_1" }),
    );
    // The idempotency key still answers with the first result, and a phone number finds its prospect.
    const replay = await second.client.createProspectLog({
      source: "crm",
      payload: { n: 1 },
      email: "Ada@Example.com",
      name: "Ada",
      idempotencyKey: "idem-1",
    });
    expect(replay.prospectLogId).toBe(first.api.state.prospectLogs.list()[0]!.id);
    const again = await second.client.createProspectLog({ source: "crm", payload: {}, phoneNumber: "+14155550100" });
    expect(again.createdProspect).toBe(false);
    // A new record gets a new ID, never one the restored state holds (a taken one would overwrite a log).
    expect(second.api.state.prospectLogs.list().map((log) => log.id)).toEqual([
      ...first.api.state.prospectLogs.list().map((log) => log.id),
      again.prospectLogId,
    ]);
  });

  it("the request log starts empty (a new page load), and reset() goes back to the fixtures, which the next load keeps", async () => {
    const storage = memoryStorage();
    const first = load(storage);
    await use(first);
    first.hide();
    const second = load(storage);
    expect(second.api.requests.list()).toEqual([]);
    second.api.reset();
    second.hide();
    const third = load(storage);
    expect(third.restored).toBe(true);
    expect(third.api.state.prospectLogs.list()).toEqual([]);
    expect(third.api.state.webhookSubscriptions.get("whsub_1")?.active).toBe(true);
  });

  it.each([
    ["a state saved in another format", (saved: string) => saved.replace("snapshot 1", "snapshot 0"), /another format/],
    ["text that is not JSON", (saved: string) => saved.slice(0, -10), /not JSON/],
    ["a snapshot with a broken record", (saved: string) => saved.replace('"active":false', '"active":"no"'), /active/],
  ])("drops %s with a warning, and starts from the fixtures", async (_, corrupt, reason) => {
    const storage = memoryStorage();
    const first = load(storage);
    await use(first);
    first.hide();
    storage.items.set(KEY, corrupt(storage.items.get(KEY)!));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const second = load(storage);
    expect(second.restored).toBe(false);
    expect(second.api.state.snapshot()).toBe(createMockApi(OPTIONS).state.snapshot());
    expect(storage.items.has(KEY)).toBe(false);
    expect(warn.mock.calls.join("\n")).toMatch(reason);
  });

  it("drops the state of a mock created with other tenants or keys", async () => {
    const storage = memoryStorage();
    const first = load(storage);
    await use(first);
    first.hide();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const other = load(storage, { ...OPTIONS, apiKeys: { pk_a: "tenant_a" } });
    expect(other.restored).toBe(false);
    expect(other.api.state.prospectLogs.list()).toEqual([]);
    expect(warn.mock.calls.join("\n")).toMatch(/other tenants or API keys/);
  });

  it("warns, and the page goes on, when the storage refuses the state (quota)", () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const first = load(storage);
    expect(() => first.hide()).not.toThrow();
    expect(warn.mock.calls.join("\n")).toMatch(/could not be saved.*quota/);
  });

  it("outside a browser, asks for a storage and a page instead of failing later", () => {
    const api = createMockApi();
    expect(() => persistState(api, { page: new EventTarget() })).toThrow(/no sessionStorage here/);
    expect(() => persistState(api, { storage: memoryStorage() })).toThrow(/no page to hear pagehide from/);
  });
});
