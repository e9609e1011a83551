/**
 * The request matchers of prospectkit/mock/vitest, as a table: each row sends some requests, runs
 * one matcher, and says whether it passes and, when it fails, the exact message (colours off). The
 * same table runs on a mock (`api`), on a tenant, and on the standalone server through
 * `mockServer(url, key)`: the messages differ only in how they name what they read.
 */
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { createMockApi, type MockApi } from "../../mock/index.js";
import { type MockServer, mockServer, startMockServer } from "../../mock/server/index.js";
import { type ExpectedRequest, matchers } from "../../mock/vitest.js";

expect.extend(matchers);

const KEY_A = "key_alpha_0123456789";
const KEY_B = "key_bravo_0123456789";
const LOG = "/v0/prospect_logs";
const PAGE = "/v0/page_groups/pagegroup_1/pages/page_1";
const ada = { source: "crm", payload: {}, email: "ada@example.com" };

type Send = (key: string, method: string, path: string, body?: unknown) => Promise<void>;
type Check = (received: unknown) => unknown;
interface Row {
  readonly rule: string;
  readonly sends: readonly (readonly [key: string, method: string, path: string, body?: unknown])[];
  readonly check: Check;
  /** The failure message, `SOURCE` for how it names what it read; null: the matcher passes. */
  readonly fails: string | null;
}

const created = (body: unknown = ada) => [KEY_A, "POST", LOG, body] as const;
const received =
  (operation: "createProspectLog" | "getPage", expected?: ExpectedRequest): Check =>
  (r) =>
    expect(r).toHaveReceived(operation, expected);

const ROWS: readonly Row[] = [
  { rule: "a request of the operation passes", sends: [created()], check: received("createProspectLog"), fails: null },
  {
    rule: "the body compared whole passes when equal",
    sends: [created()],
    check: received("createProspectLog", { body: ada, status: 201 }),
    fails: null,
  },
  {
    rule: "asymmetric matchers inside expected",
    sends: [created()],
    check: received("createProspectLog", {
      body: expect.objectContaining({ email: expect.stringMatching(/@example\.com$/) }),
      status: expect.any(Number),
    }),
    fails: null,
  },
  {
    rule: "path parameters by their SDK names, decoded",
    sends: [[KEY_A, "GET", "/v0/page_groups/pagegroup_1/pages/page%5F1"]],
    check: received("getPage", { params: { pageGroupId: "pagegroup_1", pageId: "page_1" } }),
    fails: null,
  },
  {
    rule: "query and headers by the names given (a header name in any case)",
    sends: [[KEY_A, "GET", `${PAGE}?expand=versions`]],
    check: received("getPage", { query: { expand: "versions" }, headers: { "X-Test": "yes" } }),
    fails: null,
  },
  {
    rule: "a body that differs in one field: the nearest request with a diff of that field",
    sends: [created(), created({ ...ada, email: "grace@example.com", source: "web" })],
    check: received("createProspectLog", { body: { ...ada, email: "bob@example.com" } }),
    fails: `expect(SOURCE).toHaveReceived(operation, expected)

Expected a createProspectLog request matching Object {
  "body": Object {
    "email": "bob@example.com",
    "payload": Object {},
    "source": "crm",
  },
}
Received none matching.

The nearest createProspectLog request (1st of 2): POST /v0/prospect_logs → 201; differs in body.email
- Expected
+ Received

  {
    "body": {
-     "email": "bob@example.com",
+     "email": "ada@example.com",
      "payload": {},
      "source": "crm",
    },
  }

Other createProspectLog requests:
  POST /v0/prospect_logs → 201: differs in body.source, body.email`,
  },
  {
    rule: "a path that differs in one segment: the route it missed, and the segment",
    sends: [[KEY_A, "POST", "/v0/prospect_log", ada]],
    check: received("createProspectLog"),
    fails: `expect(SOURCE).toHaveReceived(operation, expected)

Expected a createProspectLog request
Received none matching.

It received no createProspectLog request (1 request in all).

Requests close to createProspectLog (POST /v0/prospect_logs):
  POST /v0/prospect_log → 404: path segment 2 was "prospect_log", not "prospect_logs"`,
  },
  {
    rule: "the wrong method: the route it missed, and the method",
    sends: [[KEY_A, "PUT", LOG, ada]],
    check: received("createProspectLog", { body: ada }),
    fails: `expect(SOURCE).toHaveReceived(operation, expected)

Expected a createProspectLog request matching Object {
  "body": Object {
    "email": "ada@example.com",
    "payload": Object {},
    "source": "crm",
  },
}
Received none matching.

It received no createProspectLog request (1 request in all).

Requests close to createProspectLog (POST /v0/prospect_logs):
  PUT /v0/prospect_logs → 405: the method was PUT, not POST`,
  },
  {
    rule: "the right request from another tenant does not count",
    sends: [[KEY_B, "POST", LOG, ada]],
    check: received("createProspectLog", { body: ada }),
    fails: `expect(SOURCE).toHaveReceived(operation, expected)

Expected a createProspectLog request matching Object {
  "body": Object {
    "email": "ada@example.com",
    "payload": Object {},
    "source": "crm",
  },
}
Received none matching.

It received no createProspectLog request (0 requests in all).`,
  },
  {
    rule: "a status that differs",
    sends: [[KEY_A, "GET", PAGE]],
    check: received("getPage", { status: 200 }),
    fails: `expect(SOURCE).toHaveReceived(operation, expected)

Expected a getPage request matching Object {
  "status": 200,
}
Received none matching.

The nearest getPage request (1st of 1): GET /v0/page_groups/pagegroup_1/pages/page_1 → 404; differs in status
- Expected
+ Received

  {
-   "status": 200,
+   "status": 404,
  }`,
  },
  {
    rule: ".not fails on a matching request and lists it",
    sends: [created()],
    check: (r) => expect(r).not.toHaveReceived("createProspectLog", { status: 201 }),
    fails: `expect(SOURCE).not.toHaveReceived(operation, expected)

Expected no createProspectLog request matching Object {
  "status": 201,
}
Received 1 matching request:
  POST /v0/prospect_logs → 201`,
  },
  {
    rule: "toHaveReceivedTimes counts the matching requests",
    sends: [created(), created(), [KEY_A, "GET", PAGE]],
    check: (r) => expect(r).toHaveReceivedTimes("createProspectLog", 2),
    fails: null,
  },
  {
    rule: "toHaveReceivedTimes short of the count: the nearest of the others",
    sends: [created(), created({ ...ada, source: "web" })],
    check: (r) => expect(r).toHaveReceivedTimes("createProspectLog", 2, { body: expect.objectContaining({ source: "crm" }) }),
    fails: `expect(SOURCE).toHaveReceivedTimes(operation, times, expected)

Expected 2 × createProspectLog request matching Object {
  "body": ObjectContaining {
    "source": "crm",
  },
}
Received 1.

The nearest createProspectLog request (2nd of 2): POST /v0/prospect_logs → 201; differs in body.source
- Expected
+ Received

  {
    "body": {
-     "source": "crm",
+     "source": "web",
    },
  }`,
  },
  {
    rule: "toHaveReceivedTimes over the count: the matching requests",
    sends: [created(), created()],
    check: (r) => expect(r).toHaveReceivedTimes("createProspectLog", 1),
    fails: `expect(SOURCE).toHaveReceivedTimes(operation, times, expected)

Expected 1 × createProspectLog request
Received 2.

The matching requests:
  POST /v0/prospect_logs → 201
  POST /v0/prospect_logs → 201`,
  },
  {
    rule: "toHaveReceivedLast reads the last request of the operation only",
    sends: [created(), created({ ...ada, email: "grace@example.com" }), [KEY_A, "GET", PAGE]],
    check: (r) => expect(r).toHaveReceivedLast("createProspectLog", { body: expect.objectContaining({ email: "grace@example.com" }) }),
    fails: null,
  },
  {
    rule: "toHaveReceivedLast fails on an earlier match, with the last one's diff",
    sends: [created({ ...ada, email: "grace@example.com" }), created()],
    check: (r) => expect(r).toHaveReceivedLast("createProspectLog", { body: expect.objectContaining({ email: "grace@example.com" }) }),
    fails: `expect(SOURCE).toHaveReceivedLast(operation, expected)

Expected the last createProspectLog request to match Object {
  "body": ObjectContaining {
    "email": "grace@example.com",
  },
}
Received: POST /v0/prospect_logs → 201; differs in body.email
- Expected
+ Received

  {
    "body": {
-     "email": "grace@example.com",
+     "email": "ada@example.com",
    },
  }`,
  },
  {
    rule: "toHaveReceivedNothingElse passes once every request was asserted",
    sends: [created(), [KEY_A, "GET", PAGE]],
    check: async (r) => {
      await expect(r).toHaveReceived("createProspectLog");
      await expect(r).toHaveReceived("getPage");
      return expect(r).toHaveReceivedNothingElse();
    },
    fails: null,
  },
  {
    rule: "toHaveReceivedNothingElse with allowGets lets an unasserted GET pass",
    sends: [created(), [KEY_A, "GET", PAGE]],
    check: async (r) => {
      await expect(r).toHaveReceived("createProspectLog");
      return expect(r).toHaveReceivedNothingElse({ allowGets: true });
    },
    fails: null,
  },
  {
    rule: "toHaveReceivedNothingElse lists what no assertion named (a negated one names none)",
    sends: [created(), [KEY_A, "GET", PAGE], [KEY_A, "DELETE", LOG]],
    check: async (r) => {
      await expect(r).not.toHaveReceived("createProspectLog", { status: 400 });
      await expect(r).toHaveReceived("getPage");
      return expect(r).toHaveReceivedNothingElse();
    },
    fails: `expect(SOURCE).toHaveReceivedNothingElse()

Expected every request to be asserted
Received 2 requests no assertion named:
  POST /v0/prospect_logs → 201
  DELETE /v0/prospect_logs → 405`,
  },
];

/** Runs one row's check and gives its failure message (colours off), or null when it passed. */
async function outcome(check: Check, source: unknown): Promise<string | null> {
  try {
    await check(source);
    return null;
  } catch (error) {
    return stripVTControlCharacters((error as Error).message);
  }
}

const setups: readonly (readonly [
  name: string,
  start: () => Promise<{ send: Send; source: () => unknown; reset(): void; close(): Promise<void> }>,
])[] = [
  [
    "api",
    async () => {
      const api: MockApi = createMockApi({ apiKeys: { [KEY_A]: "tenant_a", [KEY_B]: "tenant_b" }, seed: 1 });
      return {
        // On the whole mock every tenant counts: tenant B's requests are not sent there.
        send: async (key, method, path, body) => {
          if (key !== KEY_A) return;
          await api.fetch(`${api.baseUrl}${path}`, request(key, method, body));
        },
        source: () => api,
        reset: () => api.reset(),
        close: async () => {},
      };
    },
  ],
  [
    "tenant",
    async () => {
      // An isolated tenant: its key is random, and what the table sends with KEY_A goes with it.
      const api = createMockApi({ apiKeys: { [KEY_A]: "tenant_a", [KEY_B]: "tenant_b" }, seed: 1 });
      let tenant = api.isolate();
      return {
        send: async (key, method, path, body) =>
          void (await api.fetch(`${api.baseUrl}${path}`, request(key === KEY_A ? tenant.apiKey : key, method, body))),
        source: () => tenant,
        reset: () => {
          api.reset();
          tenant = api.isolate();
        },
        close: async () => {},
      };
    },
  ],
  [
    "server",
    async () => {
      const server: MockServer = await startMockServer({ port: 0, apiKeys: { [KEY_A]: "tenant_a", [KEY_B]: "tenant_b" }, seed: 1 });
      return {
        send: async (key, method, path, body) => void (await (await fetch(`${server.url}${path}`, request(key, method, body))).arrayBuffer()),
        source: () => mockServer(server.url, KEY_A),
        reset: () => server.api.reset(),
        close: () => server.close(),
      };
    },
  ],
];

function request(key: string, method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { "x-api-key": key, "x-test": "yes", ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  };
}

describe.each(setups)("the request matchers on %s", (name, start) => {
  let setup: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    setup = await start();
  });
  afterAll(() => setup.close());
  beforeEach(() => setup.reset());

  it.each(ROWS)("$rule", async ({ sends, check, fails }) => {
    for (const [key, method, path, body] of sends) await setup.send(key, method, path, body);
    const message = await outcome(check, setup.source());
    expect(message).toBe(fails?.replace("SOURCE", name) ?? null);
  });

  it("no message holds the key: not from a request body, a header, nor from expected (a tenant's or a server client's own key)", async () => {
    const key = name === "tenant" ? (setup.source() as { apiKey: string }).apiKey : KEY_A;
    await setup.send(KEY_A, "POST", LOG, { ...ada, source: key });
    await setup.send(KEY_A, "POST", "/v0/prospect_log", { ...ada, source: key });
    const source = setup.source();
    // On the whole mock, only what the log hands out is checked: `expected` is the test's own text there.
    const secret = name === "api" ? "[redacted]" : key;
    const messages = await Promise.all(
      [
        (r: unknown) => expect(r).toHaveReceived("createProspectLog", { body: { ...ada, source: secret } }),
        (r: unknown) => expect(r).toHaveReceived("getPage", { headers: { "x-test": secret } }),
        (r: unknown) => expect(r).toHaveReceivedTimes("createProspectLog", 3, { body: expect.objectContaining({ source: secret }) }),
        (r: unknown) => expect(r).toHaveReceivedLast("createProspectLog", { body: { source: secret } }),
        (r: unknown) => expect(r).toHaveReceivedNothingElse(),
      ].map((check) => outcome(check, source)),
    );
    messages.forEach((message, i) => {
      expect(message).not.toBeNull();
      expect(message).not.toContain(key);
      if (i < 4) expect(message).toContain("[redacted]"); // those that show bodies or headers; the last lists lines only
    });
  });

  it("expected naming x-api-key is refused without echoing it", async () => {
    const message = await outcome((r) => expect(r).toHaveReceived("getPage", { headers: { "X-Api-Key": KEY_A } }), setup.source());
    expect(message).toBe("expected.headers names x-api-key: the request log never keeps the API key, so it cannot be compared");
  });
});

describe("the matchers' types", () => {
  it("an assertion on a mock or a tenant returns nothing; on a server client, a promise to await", () => {
    const api = createMockApi();
    expectTypeOf(expect(api).toHaveReceived).returns.toEqualTypeOf<void>();
    expectTypeOf(expect(api.isolate()).toHaveReceivedTimes).returns.toEqualTypeOf<void>();
    expectTypeOf(expect(mockServer("http://127.0.0.1:1", "key")).toHaveFiredAllFaults).returns.toEqualTypeOf<Promise<void>>();
  });
});

describe("mockServer", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, apiKeys: { [KEY_A]: "tenant_a" } });
  });
  afterAll(() => server.close());

  it.each([
    ["a key the server refuses", () => mockServer(server.url, KEY_B), /answered 401/],
    ["a server that does not answer", () => mockServer("http://127.0.0.1:1", KEY_B), /failed/],
  ])("%s: the assertion rejects with a TypeError that never holds the key", async (_rule, client, message) => {
    const error = await Promise.resolve(expect(client()).toHaveReceived("getPage")).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error?.message).toMatch(message);
    expect(error?.message).not.toContain(KEY_B);
  });

  it("holds its key where util.inspect and JSON.stringify do not look", async () => {
    const { inspect } = await import("node:util");
    const client = mockServer(server.url, KEY_A);
    expect(inspect(client, { depth: 5, showHidden: true })).not.toContain(KEY_A);
    expect(JSON.stringify(client)).not.toContain(KEY_A);
  });
});

describe("what the matchers refuse", () => {
  const api = createMockApi();
  it.each([
    ["a value that is no mock, tenant or server client", () => expect({}).toHaveReceived("getPage"), /received must be a mock/],
    ["an operation the API does not have", () => expect(api).toHaveReceived("getPages" as never), /"getPages" is not an operation of the API/],
    ["a part a request does not have", () => expect(api).toHaveReceived("getPage", { path: "/v0" } as never), /expected has no part "path"/],
    ["a count that is not a whole number", () => expect(api).toHaveReceivedTimes("getPage", 1.5), /times must be a whole number/],
  ])("%s: a TypeError", (_rule, check, message) => {
    expect(check).toThrow(TypeError);
    expect(check).toThrow(message);
  });
});
