/**
 * Isolation per test, as a suite running side by side uses it: 50 concurrent Vitest tests share
 * one mock per adapter (`api.fetch`, MSW `setupServer`, the standalone server over HTTP), each gets
 * its own tenant from a fixture, creates data, arms faults (one for any call, one matched on a body
 * field), reads its request log and resets, with waits between the steps so that every test's
 * steps fall between the others'. Each sees only its own data, faults and requests: a fault, a
 * reset or a log entry that leaked would break another test's exact counts. The file is the
 * `concurrent` vitest project (test/projects.ts), whose `maxConcurrency` of 50 lets all 50 run at
 * once whichever files a worker ran before.
 */
import { setupServer } from "msw/node";
import { afterAll, test as base, beforeAll, describe, expect } from "vitest";
import { createMockApi, type MockApi, unhandledRequests } from "../../mock/index.js";
import { type MockServer, startMockServer } from "../../mock/server/index.js";
import { createClient, InternalServerError, type ProspectKitClient } from "../../src/index.js";

const TESTS = Array.from({ length: 50 }, (_, index) => index);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A point `count` tests wait at until all have arrived (with fewer running at once, they time out: a failure, not a pass). */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === count) open();
    return opened;
  };
}

/** One test's tenant, driven the way its adapter's users drive it. */
interface Tenant {
  readonly tenantId: string;
  readonly client: ProspectKitClient;
  arm(fault: { status: number; operation: "createProspectLog"; match?: Record<string, string> }): Promise<void>;
  requests(): Promise<{ status: number; tenantId: string | null }[]>;
  logs(): Promise<{ source: string }[]>;
  reset(): Promise<void>;
}

/** A tenant in process: `api.isolate()`, whatever carries the requests (`api.fetch` or msw's interception of the global fetch). */
function isolated(api: MockApi, fetch: typeof globalThis.fetch): Tenant {
  const t = api.isolate();
  return {
    tenantId: t.tenantId,
    client: createClient({ apiKey: t.apiKey, baseUrl: api.baseUrl, fetch, maxRetries: 0 }),
    arm: async ({ status, ...options }) => t.faults.status(status, options),
    requests: async () => t.requests(),
    logs: async () => api.state.prospectLogs.list({ tenantId: t.tenantId }),
    reset: async () => t.reset(),
  };
}

/** A tenant of a shared server, over HTTP only: `POST /__mock/tenants`, then its key for everything. */
async function overHttp(url: string): Promise<Tenant> {
  const control = async (method: string, path: string, apiKey: string, body?: unknown) => {
    const headers = { "x-api-key": apiKey, ...(body !== undefined && { "content-type": "application/json" }) };
    const response = await fetch(`${url}/__mock${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    expect(response.status).toBeLessThan(300);
    return response.json();
  };
  const { tenantId, apiKey } = await control("POST", "/tenants", "mock_api_key");
  return {
    tenantId,
    client: createClient({ apiKey, baseUrl: url, maxRetries: 0 }),
    arm: async ({ status, ...scope }) => void (await control("POST", "/faults", apiKey, { kind: "status", status, ...scope })),
    requests: async () => (await control("GET", "/requests", apiKey)).data,
    logs: async () => (await control("GET", "/prospect_logs", apiKey)).data,
    reset: async () => void (await control("POST", "/reset", apiKey)),
  };
}

const inProcess = createMockApi({ baseUrl: "https://fetch.isolation.test" });
const intercepted = createMockApi({ baseUrl: "https://msw.isolation.test" });
const msw = setupServer(...intercepted.handlers);
let server: MockServer;
beforeAll(async () => {
  msw.listen(unhandledRequests("error", { within: intercepted.baseUrl })); // the server's requests pass through
  server = await startMockServer({ port: 0, webhooks: { deliver: false } });
});
afterAll(async () => {
  msw.close();
  await server.close();
});

const ADAPTERS = [
  { name: "api.fetch", tenant: async () => isolated(inProcess, inProcess.fetch) },
  { name: "MSW setupServer", tenant: async () => isolated(intercepted, (input, init) => fetch(input, init)) },
  { name: "the server over HTTP", tenant: () => overHttp(server.url) },
];

describe.each(ADAPTERS)("50 concurrent tests, each with its own tenant, through $name", ({ tenant: makeTenant }) => {
  // The fixture docs/testing.md shows: every test gets its own tenant, reset when it ends.
  const test = base.extend<{ tenant: Tenant }>({
    // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern (it has none)
    tenant: async ({}, use) => {
      const tenant = await makeTenant();
      await use(tenant);
      await tenant.reset();
    },
  });
  let running = 0;
  let most = 0;
  // Every test waits at each barrier until all 50 are there: the steps in between interleave for sure.
  const allWrote = barrier(TESTS.length);
  const allArmed = barrier(TESTS.length);

  describe.concurrent("the tests", () => {
    test.for(TESTS)("test %i sees only its own data, faults and requests", async (index, { tenant }) => {
      running += 1;
      most = Math.max(most, running);
      const pause = () => sleep((index * 7) % 5);
      // Half the tests arm a fault for their next create, then all create at once: a fault that
      // leaked would fail a create of a test that armed none.
      const faulty = index % 2 === 0;
      try {
        const { client } = tenant;
        expect((await client.createProspectLog({ source: `first-${index}`, payload: {} }).withResponse()).response.status).toBe(201);
        await allWrote();
        if (faulty) await tenant.arm({ status: 503, operation: "createProspectLog" });
        await allArmed();
        const second = client.createProspectLog({ source: `second-${index}`, payload: {} });
        if (faulty) await expect(second).rejects.toMatchObject({ status: 503 });
        else await second;
        await tenant.arm({ status: 500, operation: "createProspectLog", match: { source: `mine-${index}` } });
        await pause();
        await client.createProspectLog({ source: `other-${index}`, payload: {} });
        await expect(client.createProspectLog({ source: `mine-${index}`, payload: {} })).rejects.toBeInstanceOf(InternalServerError);
        await pause();
        const sources = faulty ? [`first-${index}`, `other-${index}`] : [`first-${index}`, `second-${index}`, `other-${index}`];
        expect((await tenant.logs()).map((log) => log.source)).toEqual(sources);
        const requests = await tenant.requests();
        expect(requests.map((request) => request.status)).toEqual([201, faulty ? 503 : 201, 201, 500]);
        expect(new Set(requests.map((request) => request.tenantId))).toEqual(new Set([tenant.tenantId]));

        await tenant.reset();
        await pause();
        expect(await tenant.logs()).toEqual([]);
        expect(await tenant.requests()).toEqual([]);
        await client.createProspectLog({ source: `after-${index}`, payload: {} });
        expect((await tenant.logs()).map((log) => log.source)).toEqual([`after-${index}`]);
      } finally {
        running -= 1;
      }
    });
  });

  test("they ran side by side: all 50 at once", () => {
    expect(most).toBe(TESTS.length);
  });
});
