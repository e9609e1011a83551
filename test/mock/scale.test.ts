/**
 * Scale: every lookup is by index, never a scan. Proven by counting, not timing: the iteration
 * work (elements visited by array, Map and Set iterators and array methods) of each request is
 * the same with 100 and with 10,000 of everything stored.
 */
import { describe, expect, it } from "vitest";
import { createMockApi, type MockApi } from "../../mock/index.js";

const T0 = Date.parse("2024-02-29T12:00:00.000Z");
const KEY = "pk_test_scale";

/** Fills a mock with `n` prospects (all identifiers), logs with idempotency keys, pages and subscriptions. */
function filled(n: number): MockApi {
  const api = createMockApi({ apiKeys: [KEY], seed: 1, now: () => T0 });
  const group = api.state.pageGroups.create({ id: "group" });
  for (let i = 0; i < n; i++) {
    api.state.prospectLogs.create({
      source: "seed",
      payload: { i },
      email: `p${i}@example.com`,
      phoneNumber: `+1555${String(i).padStart(7, "0")}`,
      linkedinProfileUrl: `linkedin.com/in/p${i}`,
      idempotencyKey: `seed-${i}`,
    });
    api.state.prospectLogs.create({ source: "seed", payload: {}, email: "same@example.com" });
    const page = api.state.pages.create({ id: `page_${i}`, pageGroupId: group.id });
    const version = api.state.pageVersions.create({ pageId: page.id });
    api.state.pageVersions.process(version.id, { computedName: `p${i}` });
    api.state.pageVersions.publish(version.id);
    api.state.webhookSubscriptions.create({ id: `sub_${i}`, url: "https://hooks.example.com/h", events: ["form.submitted"] });
  }
  return api;
}

type Patchable = Record<string, (...args: unknown[]) => unknown>;

/** Runs `fn` while counting the elements every iterator and array method visits. */
async function iterationWork(fn: () => Promise<unknown>): Promise<number> {
  let work = 0;
  const restore: (() => void)[] = [];
  const patch = (target: object, name: string, wrap: (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown) => {
    const holder = target as Patchable;
    const original = holder[name]!;
    holder[name] = wrap(original);
    restore.push(() => {
      holder[name] = original;
    });
  };
  const iteratorPrototypes = [[][Symbol.iterator](), new Map()[Symbol.iterator](), new Set()[Symbol.iterator]()].map(
    (it) => Object.getPrototypeOf(it) as object,
  );
  for (const proto of iteratorPrototypes) {
    patch(
      proto,
      "next",
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          work++;
          return original.apply(this, args);
        },
    );
  }
  for (const name of [
    "forEach",
    "map",
    "filter",
    "find",
    "findIndex",
    "findLast",
    "some",
    "every",
    "reduce",
    "indexOf",
    "lastIndexOf",
    "includes",
    "flatMap",
    "slice",
    "sort",
  ]) {
    patch(
      Array.prototype,
      name,
      (original) =>
        function (this: unknown[], ...args: unknown[]) {
          work += this.length;
          return original.apply(this, args);
        },
    );
  }
  for (const name of ["keys", "values", "entries"]) {
    patch(Object, name, (original) => (...args: unknown[]) => {
      const result = original(...args) as unknown[];
      work += result.length;
      return result;
    });
  }
  try {
    await fn();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
  return work;
}

const post = (api: MockApi, body: unknown) =>
  api.fetch(`${api.baseUrl}/v0/prospect_logs`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

/** One request of each kind, `i` making each call's values fresh. */
const REQUESTS: readonly [string, (api: MockApi, i: number) => Promise<Response>][] = [
  ["create matched by email", (api) => post(api, { source: "s", payload: {}, email: "P5@example.com" })],
  ["create matched by LinkedIn URL", (api) => post(api, { source: "s", payload: {}, linkedinProfileUrl: "https://www.linkedin.com/in/p7/" })],
  [
    "create of a new prospect with a new idempotency key",
    (api, i) => post(api, { source: "s", payload: {}, email: `new${i}@example.com`, idempotencyKey: `new-${i}` }),
  ],
  [
    "create replayed from an idempotency key",
    (api) =>
      post(api, {
        source: "seed",
        payload: { i: 3 },
        email: "p3@example.com",
        phoneNumber: "+15550000003",
        linkedinProfileUrl: "linkedin.com/in/p3",
        idempotencyKey: "seed-3",
      }),
  ],
  ["create against the prospect with the most logs", (api) => post(api, { source: "s", payload: {}, email: "same@example.com" })],
  ["get page", (api) => api.fetch(`${api.baseUrl}/v0/page_groups/group/pages/page_42`, { headers: { "x-api-key": KEY } })],
  [
    "update subscription",
    (api, i) =>
      api.fetch(`${api.baseUrl}/v0/webhook_subscriptions/sub_42`, {
        method: "PATCH",
        headers: { "x-api-key": KEY, "content-type": "application/json" },
        body: JSON.stringify({ active: i % 2 === 0 }),
      }),
  ],
  ["unknown route", (api) => api.fetch(`${api.baseUrl}/v0/nothing`, { headers: { "x-api-key": KEY } })],
];

describe("the work of a request does not grow with the stored data", () => {
  const small = filled(100);
  const large = filled(10_000);

  it("the large mock really holds 100x the data", () => {
    expect(large.state.prospectLogs.list()).toHaveLength(20_000);
    expect(small.state.prospectLogs.list()).toHaveLength(200);
  });

  it.each(REQUESTS)(
    "%s: the same iteration work with 10,000 as with 100 of everything",
    async (_, send) => {
      const measure = async (api: MockApi, i: number) => {
        let status = 0;
        const work = await iterationWork(async () => {
          const response = await send(api, i);
          status = response.status;
          await response.text();
        });
        return { work, status };
      };
      await measure(small, 0); // warm-up: first calls allocate lazily
      await measure(large, 0);
      const a = await measure(small, 1);
      const b = await measure(large, 1);
      expect(b.status).toBe(a.status);
      expect(a.status).toBeLessThan(500);
      expect(a.work).toBeGreaterThan(0);
      expect(b.work).toBe(a.work);
    },
    60_000,
  );
});
