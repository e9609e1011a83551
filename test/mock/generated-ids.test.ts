/**
 * Rule (BEHAVIOUR.md, "Identifiers"): a generated ID never equals an ID that already exists,
 * whatever IDs clients or fixtures chose, a frozen clock and a fixed seed included: the generator
 * skips taken IDs, and nothing stored is ever overwritten by a later create.
 *
 * Each case learns the ID the generator would hand out next (a twin mock with the same seed and
 * clock), stores a record under that ID in the real mock, then lets the generator run.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, type MockApi } from "../../mock/index.js";

const T0 = Date.parse("2024-02-29T12:00:00.000Z");
const KEY = "pk_test_ids";
const make = (): MockApi => createMockApi({ apiKeys: [KEY], seed: 7, now: () => T0 });
const twins = (): [MockApi, MockApi] => [make(), make()];

/** One resource kind: generate one ID, and store one under a chosen ID. */
interface Kind {
  readonly name: string;
  generate(api: MockApi): string;
  claim(api: MockApi, id: string): void;
  /** The claimed record, as stored. */
  stored(api: MockApi, id: string): unknown;
}

const KINDS: readonly Kind[] = [
  {
    name: "prospect",
    generate: (api) => api.state.prospects.create().id,
    claim: (api, id) => void api.state.prospects.create({ id, email: "victim@example.com", name: "Victim" }),
    stored: (api, id) => api.state.prospects.get(id),
  },
  {
    name: "page group",
    generate: (api) => api.state.pageGroups.create().id,
    claim: (api, id) => void api.state.pageGroups.create({ id }),
    stored: (api, id) => api.state.pageGroups.get(id),
  },
  {
    name: "page",
    generate: (api) => api.state.pages.create({ pageGroupId: "pagegroup_fixed" }).id,
    claim: (api, id) => void api.state.pages.create({ id, pageGroupId: "pagegroup_fixed", customName: "Victim" }),
    stored: (api, id) => api.state.pages.get(id),
  },
  {
    name: "page version",
    generate: (api) => api.state.pageVersions.create({ pageId: "page_fixed" }).id,
    claim: (api, id) => void api.state.pageVersions.create({ id, pageId: "page_fixed" }),
    stored: (api, id) => api.state.pageVersions.get(id),
  },
  {
    name: "webhook subscription",
    generate: (api) => api.state.webhookSubscriptions.create({ url: "https://hooks.example.com/a" }).id,
    claim: (api, id) => void api.state.webhookSubscriptions.create({ id, url: "https://victim.example.com/" }),
    stored: (api, id) => api.state.webhookSubscriptions.get(id),
  },
  {
    name: "tenant",
    generate: (api) => api.state.tenants.create().id,
    claim: (api, id) => void api.state.tenants.create({ id, apiKeys: ["pk_victim"] }),
    stored: (api, id) => api.state.tenants.get(id),
  },
];

function seedBase(api: MockApi): void {
  api.state.pageGroups.create({ id: "pagegroup_fixed" });
  api.state.pages.create({ id: "page_fixed", pageGroupId: "pagegroup_fixed" });
}

describe("a generated ID never equals an existing one: the generator skips taken IDs", () => {
  it.each(KINDS)("$name: an ID a client chose before is skipped, and the record under it is kept", (kind) => {
    const [twin, api] = twins();
    seedBase(twin);
    seedBase(api);
    const predicted = kind.generate(twin);
    kind.claim(api, predicted);
    const before = structuredClone(kind.stored(api, predicted));
    const generated = kind.generate(api);
    expect(generated).not.toBe(predicted);
    expect(kind.stored(api, predicted)).toEqual(before);
  });

  it("prospect log: a client-chosen prospectId that the generator produces next is never handed out again", async () => {
    const [twin, api] = twins();
    const post = (target: MockApi, body: unknown) =>
      target
        .fetch(`${target.baseUrl}/v0/prospect_logs`, {
          method: "POST",
          headers: { "x-api-key": KEY, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
        .then((r) => r.json());
    await post(twin, { source: "crm", payload: {}, prospectId: "prospect_00000000000000000000000000" });
    const predicted = (await post(twin, { source: "crm", payload: {} })).prospectId as string;

    const victim = await post(api, { source: "crm", payload: {}, prospectId: predicted, email: "victim@example.com", name: "Victim" });
    expect(victim).toMatchObject({ prospectId: predicted, createdProspect: true });
    const next = await post(api, { source: "crm", payload: {} });
    expect(next.prospectId).not.toBe(predicted);
    expect(next.createdProspect).toBe(true);
    expect(api.state.prospects.get(predicted)).toMatchObject({ email: "victim@example.com", name: "Victim" });
    expect(api.state.prospects.findByIdentifier({ email: "victim@example.com" })?.id).toBe(predicted);
  });

  it("an ID taken in another tenant is skipped too (IDs are unique across the whole mock)", () => {
    const [twin, api] = twins();
    const predicted = twin.state.prospects.create().id;
    const other = api.state.tenants.create({ id: "tenant_other" });
    api.state.prospects.create({ id: predicted, tenantId: other.id });
    expect(api.state.prospects.create().id).not.toBe(predicted);
  });
});
